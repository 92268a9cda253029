print("moviesd-bench: not implemented yet")
