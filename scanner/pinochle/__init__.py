"""Four-handed partnership pinochle: the deal rules, auction, meld and score."""
