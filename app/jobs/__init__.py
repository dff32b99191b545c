"""Background work that owns its transactions: generations, rebuilds (what a request hands on, or cron runs)."""
