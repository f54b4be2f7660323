// The Heart Rate Measurement decoder (0x2A37) moved to AxonDevices so that every heart-rate device family (these
// bands, the Polar H10 in AxonPolar) reads it from one place; `import AxonBand` keeps seeing it as before.
@_exported import enum AxonDevices.HeartRateMeasurementError
@_exported import struct AxonDevices.HeartRateMeasurement
