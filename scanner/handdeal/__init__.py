"""The hand-dealt table: no dealing machine, only cameras.

A reading shoe's camera sees each card's face as the dealer draws it (``passes``); a camera
over the table sees cards land in the seats' zones (``zones``, ``arrivals``); ``deal`` turns
both into the same events the dealing shoe logs, and the deal tracker rules on them.
``footage`` renders hand deals as video for the tests, the demo and the benches.
"""
