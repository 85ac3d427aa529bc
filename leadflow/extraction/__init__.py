"""Talking to the extraction service: its wire contract, the client, signed callbacks."""
