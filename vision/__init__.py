"""Camera, calibration and Shuriken judgement."""
