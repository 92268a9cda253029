print("not implemented yet")
