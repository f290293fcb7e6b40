"""Media access with PyAV: probing facts and decoding audio."""
