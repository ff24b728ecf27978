"""Synthetic cards, for tests, benchmarks, the demo and training: the card renderer, camera
perturbations, table scenes and a rendered camera. Nothing at a real table runs this."""
