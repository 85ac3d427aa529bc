"""Use cases: one function, one transaction, explicit inputs."""
