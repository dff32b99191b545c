"""What editors do beyond plain rows: the audit trail, the files they upload or point at."""
