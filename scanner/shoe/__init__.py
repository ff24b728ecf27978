"""The dealing shoe: framed serial protocol, pyserial driver, Python simulator, dealing loop."""
