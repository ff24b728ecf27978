"""tablescan's core library: cards, events, the event log, deal rules, vision and the shoe."""

__version__ = "0.1.0"
