"""The operator's console: acting on games and people, what it shows, health, metrics and retention.
"""
