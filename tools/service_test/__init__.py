"""`make service-test`: the service under a real systemd in a container (see `__main__`)."""
