"""Game models built on the shoe and dealing machinery: chemin de fer (and later banque)."""
