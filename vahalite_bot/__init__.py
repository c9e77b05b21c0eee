"""Vaha-Lite: a Discord bot for the Vaha-Lite wargame."""
