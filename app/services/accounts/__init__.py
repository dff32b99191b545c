"""Accounts: sign-up, sign-in, passwords, sessions and their revocation, subscriptions."""
