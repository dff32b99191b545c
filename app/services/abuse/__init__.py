"""Viewers' abuse reports and the editors' queue of them (app/models/abuse.py)."""
