"""Computer opponents: pure engines and bridges to engine processes; no Django."""
