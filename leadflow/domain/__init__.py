"""Pure domain rules: no Flask, no database, no I/O."""
