// MoviesDaemon: composition root and daemon presentation (placeholder)
