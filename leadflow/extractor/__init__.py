"""The extraction service LeadFlow ships: a separate HTTP process that reads, classifies and extracts documents."""
