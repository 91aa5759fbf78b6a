package io.binlogapplier.config;

/** How apply units may run in parallel (DESIGN.md, "Modes"). */
public enum ApplyMode {
    /** A unit starts when every unit of an earlier commit group has committed. */
    CONSERVATIVE,
    /** A unit starts when no earlier uncommitted unit shares a write-set entry with it. */
    OPTIMISTIC
}
