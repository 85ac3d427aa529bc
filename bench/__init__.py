"""Benchmarks and the chaos run: each starts LeadFlow's distributed mode as processes and prints figures."""
