"""Accounts: sign-up, log-in, profiles, the per-game points ledger and ladder."""
