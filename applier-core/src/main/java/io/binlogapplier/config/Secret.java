package io.binlogapplier.config;

/** A password: never printed. {@link #toString()} is {@code <masked>}. */
public record Secret(String value) {
    public Secret {
        value = value == null ? "" : value;
    }

    @Override
    public String toString() {
        return "<masked>";
    }
}
