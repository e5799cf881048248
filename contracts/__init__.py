"""The typed methodology snapshot, its committed versions and the drift check."""
