package io.binlogapplier.config;

import io.binlogapplier.errors.Messages;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Loads a YAML configuration file into one immutable {@link ApplierConfig}, validating everything
 * before anything starts: all problems are reported together, each with its key path; unknown keys
 * are errors; passwords may come from a file or an environment variable and are never printed.
 * Each key's default and meaning is written once, in {@code config/example.yml}.
 */
public final class ConfigLoader {
    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9_.-]{1,64}$");
    private static final Pattern IDENTIFIER = Pattern.compile("^[A-Za-z0-9_$]{1,64}$");

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConfigLoader.class);

    private final UnaryOperator<String> environment;

    public ConfigLoader() {
        this(System::getenv);
    }

    /** @param environment looks up environment variables (tests pass their own) */
    public ConfigLoader(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    public ApplierConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of("cannot read the file (" + e.getMessage() + ")"));
        }
        String base = file.getFileName().toString().replaceFirst("\\.(ya?ml)$", "");
        return parse(text, file.toString(), base);
    }

    public ApplierConfig parse(String yaml, String origin, String defaultName) {
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(yaml);
        } catch (YamlEngineException e) {
            throw new ConfigException(origin, List.of("not valid YAML: " + yamlProblem(e)));
        }
        List<String> problems = new ArrayList<>();
        if (!(root instanceof Map<?, ?> map)) {
            throw new ConfigException(origin, List.of("the file must be a YAML mapping with source:, target: and apply:"));
        }
        ConfigReader r = new ConfigReader(problems, "", map);
        String name = r.string("name", defaultName, false);
        if (!NAME.matcher(name).matches()) {
            r.problem("name", "must be 1 to 64 letters, digits, '_', '-' or '.', not '" + name + "'");
        }
        SourceConfig source = source(r.section("source"));
        TargetConfig target = target(r.section("target"));
        ApplyConfig apply = apply(r.section("apply"));
        FilterConfig filter = FilterConfigReader.read(r.section("filter"), target.stateSchema());
        MetricsConfig metrics = metrics(r.section("metrics"));
        DurabilityConfig durability = durability(r.section("durability"));
        VerifyConfig verify = verify(r.section("verify"));
        LogConfig log = log(r.section("log"));
        r.rejectUnknown();
        if (!problems.isEmpty()) {
            throw new ConfigException(origin, problems);
        }
        return new ApplierConfig(name, source, target, apply, filter, metrics, durability, verify, log);
    }

    /**
     * What snakeyaml found and where, without the lines of the file it quotes in its message: the
     * line at fault may hold a password ({@code password: "unclosed}).
     */
    private static String yamlProblem(YamlEngineException e) {
        if (e instanceof MarkedYamlEngineException m) {
            String context = m.getContext() == null ? "" : m.getContext() + at(m.getContextMark()) + ", ";
            return context + m.getProblem() + at(m.getProblemMark());
        }
        return Messages.firstLine(e);
    }

    private static String at(java.util.Optional<org.snakeyaml.engine.v2.exceptions.Mark> mark) {
        return mark.map(k -> " (line " + (k.getLine() + 1) + ", column " + (k.getColumn() + 1) + ")").orElse("");
    }

    private SourceConfig source(ConfigReader r) {
        String host = r.string("host", "", true);
        int port = (int) r.integer("port", 3306, 1, 65535, false);
        String user = r.string("user", "", true);
        Secret password = password(r);
        long serverId = r.integer("server_id", 0, 1, 4_294_967_295L, true);
        StartPosition start = r.parsed("start", new StartPosition.Current(), StartPosition::parseOrNull,
            "'current', a file:offset such as mysql-bin.000001:4, or a GTID position such as 0-1-100");
        Duration connect = r.duration("connect_timeout", Duration.ofSeconds(10), Duration.ofMillis(100));
        Duration heartbeat = r.duration("heartbeat", Duration.ofSeconds(1), Duration.ofMillis(100));
        // Three heartbeats missed in a row is a silent partition, not a busy source: MariaDB and MySQL send
        // one whenever they have sent nothing else for a heartbeat period. At least 5 s, so a short
        // heartbeat does not turn a pause of the source (or of this JVM) into a reconnect.
        Duration readTimeoutDefault = max(Duration.ofSeconds(5), heartbeat.multipliedBy(3));
        Duration readTimeout = r.duration("read_timeout", readTimeoutDefault, Duration.ofSeconds(1));
        if (r.has("read_timeout") && readTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
            r.problem("read_timeout", "must be at least twice source.heartbeat (" + heartbeat.toMillis()
                + " ms): a heartbeat late by a moment must not look like a lost source");
        }
        ReconnectLimit reconnects = reconnects(r);
        TlsConfig tls = tls(r.section("tls"));
        r.rejectUnknown();
        return new SourceConfig(host, port, user, password, serverId, start, connect, heartbeat, readTimeout,
            reconnects, tls);
    }

    private TargetConfig target(ConfigReader r) {
        String host = r.string("host", "", true);
        int port = (int) r.integer("port", 3306, 1, 65535, false);
        String user = r.string("user", "", true);
        Secret password = password(r);
        String schema = r.string("state_schema", "binlog_applier", false);
        if (!IDENTIFIER.matcher(schema).matches()) {
            r.problem("state_schema", "must be a plain schema name (letters, digits, '_', '$'), not '" + schema + "'");
        }
        Duration connect = r.duration("connect_timeout", Duration.ofSeconds(10), Duration.ofMillis(100));
        Duration statementTimeout = r.duration("statement_timeout", Duration.ofHours(8), Duration.ofSeconds(10));
        ReconnectLimit reconnects = reconnects(r);
        TlsConfig tls = tls(r.section("tls"));
        r.rejectUnknown();
        return new TargetConfig(host, port, user, password, schema, connect, statementTimeout, reconnects, tls);
    }

    /**
     * A {@code tls:} section. Without {@code mode}, a {@code ca_file} means verify_ca (as for the MySQL
     * clients' --ssl-ca), else preferred. Each file is read and parsed here, so a bad one stops the start.
     */
    private static TlsConfig tls(ConfigReader r) {
        boolean modeGiven = r.has("mode");
        TlsMode mode = r.choice("mode", TlsMode.PREFERRED, TlsMode.class);
        Path ca = pemFile(r, "ca_file", true);
        Path cert = pemFile(r, "cert_file", true);
        Path key = pemFile(r, "key_file", false);
        if (!modeGiven && ca != null) {
            mode = TlsMode.VERIFY_CA;
        }
        if (mode.verifiesCertificate() && ca == null && !r.has("ca_file")) {
            r.problem("ca_file", "is required with mode " + mode.configName() + ": give the PEM file of the CA that"
                + " signed the server's certificate (or choose mode required, which verifies nothing)");
        }
        if (r.has("key_file") && !r.has("cert_file")) {
            r.problem("cert_file", "is required with key_file: give the client certificate of that key");
        }
        if (r.has("cert_file") && !r.has("key_file")) {
            r.problem("key_file", "is required with cert_file: give the private key of that certificate");
        }
        if (mode == TlsMode.DISABLED && (r.has("ca_file") || r.has("cert_file") || r.has("key_file"))) {
            r.problem("mode", "is disabled, so ca_file, cert_file and key_file would be ignored: remove them or choose"
                + " another mode");
        }
        if (key != null && PemFiles.readableByOthers(key)) {
            log.warn("{}: {} is readable by other users: chmod 600 it", r.key("key_file"), key);
        }
        if (modeGiven && ca != null && !mode.verifiesCertificate() && mode != TlsMode.DISABLED) {
            // Accepted (the file is valid, the connection is encrypted), but nothing is checked against it.
            log.warn("{}: mode {} does not verify the server's certificate, so ca_file {} is not used: choose mode"
                + " verify_ca (or verify_identity) to check the certificate against it", r.key("mode"),
                mode.configName(), ca);
        }
        r.rejectUnknown();
        return new TlsConfig(mode, ca, cert, key);
    }

    /** A PEM file of certificates ({@code certificates}) or of a private key; null (and a problem) when unusable. */
    private static Path pemFile(ConfigReader r, String k, boolean certificates) {
        if (!r.has(k)) {
            return null;
        }
        String text = r.string(k, "", false);
        Path file = Path.of(text);
        try {
            if (certificates) {
                PemFiles.certificates(file);
            } else {
                PemFiles.privateKey(file);
            }
            return file;
        } catch (IOException e) {
            r.problem(k, "cannot read '" + text + "' (" + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
            r.problem(k, "'" + text + "' " + e.getMessage());
        }
        return null;
    }

    private static ReconnectLimit reconnects(ConfigReader r) {
        return r.parsed("reconnect_attempts", ReconnectLimit.FOREVER, ReconnectLimit::parseOrNull,
            "forever or a whole number from 0 to 1000000");
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static final long MIB = 1L << 20;
    /** The JVM's heap limit ({@code -Xmx}), which {@code apply.ring_bytes} must fit in. */
    private static final long MAX_HEAP = Runtime.getRuntime().maxMemory();

    /**
     * Received bytes in flight by default: 32 MB, up to 64 MB on heaps of 2 GB and more (a thirty-second
     * of the heap), down to an eighth of a heap under 256 MB, and never under 16 MB. A row held for
     * apply costs several times its binlog bytes (decoded values, the raw body kept for the BINLOG
     * method, the statement being built), and everything in flight is live at every young collection,
     * which copies it: with 128 MB in flight a catch-up of big transactions spent 1.4 to 2.3 s of 22 s
     * in collection pauses (four runs), with 32 MB 0.9 s. 16 MB holds one part of a large transaction
     * at a time (a part is 8 MB and a little more), so the reader waited for the worker and the
     * catch-up was slower (docs/benchmark/2026-12-06-ring-bytes.md).
     */
    static long defaultRingBytes(long maxHeap) {
        return Math.max(16 * MIB, Math.max(Math.min(32 * MIB, maxHeap / 8), Math.min(64 * MIB, maxHeap / 32)));
    }

    private ApplyConfig apply(ConfigReader r) {
        // optimistic with workers auto by default: serial while the target works from memory, parallel while it
        // waits on its disk (docs/configuration.md, "Workers: a number or auto")
        ApplyMode mode = r.choice("mode", ApplyMode.OPTIMISTIC, ApplyMode.class);
        ApplyMethod method = r.choice("method", ApplyMethod.AUTO, ApplyMethod.class);
        int workers = r.parsed("workers", AUTO, v -> autoOrUpTo(v, 256), "auto or a whole number from 1 to 256");
        boolean workersAuto = workers == AUTO;
        if (workersAuto) {
            workers = ApplyConfig.AUTO_WORKERS;
        }
        int unitTx = r.parsed("unit_max_transactions", AUTO, v -> autoOrUpTo(v, 100_000),
            "auto or a whole number from 1 to 100000");
        int unitTxAlone = unitTx;
        if (unitTx == AUTO) {
            unitTx = ApplyConfig.UNIT_MAX_TRANSACTIONS;
            unitTxAlone = ApplyConfig.UNIT_MAX_TRANSACTIONS_ALONE;
        }
        long unitBytes = r.size("unit_max_bytes", 16L << 20, 1, 1L << 40);
        Duration unitDelay = r.duration("unit_max_delay", Duration.ofMillis(200), Duration.ZERO);
        int ringEntries = (int) r.integer("ring_entries", 4096, 16, 1 << 20, false);
        if (Integer.bitCount(ringEntries) != 1) {
            r.problem("ring_entries", "must be a power of two (1024, 4096 …), not " + ringEntries);
        }
        long ringBytes = r.size("ring_bytes", defaultRingBytes(MAX_HEAP), 1L << 20, 1L << 40);
        if (ringBytes > MAX_HEAP / 2) {
            r.problem("ring_bytes", ringBytes / MIB + " MB does not fit in this JVM's heap (at most " + MAX_HEAP / MIB
                + " MB): leave ring_bytes out (it is then " + defaultRingBytes(MAX_HEAP) / MIB + " MB), set at most "
                + MAX_HEAP / 2 / MIB + " MB, or give the JVM more with -Xmx (BINLOG_APPLIER_JAVA_OPTS)");
        }
        int retries = (int) r.integer("retries", 10, 0, 1000, false);
        boolean netEffect = r.bool("net_effect", true);
        boolean leanBeforeImages = r.bool("lean_before_images", true);
        boolean leanAfterImages = r.bool("lean_after_images", false);
        ReadAheadConfig readAhead = readAhead(r.section("read_ahead"));
        r.rejectUnknown();
        return new ApplyConfig(mode, method, workers, unitTx, unitTxAlone, unitBytes, unitDelay, ringEntries, ringBytes,
            retries, netEffect, readAhead, workersAuto, leanBeforeImages, leanAfterImages);
    }

    /** {@code auto}, as {@link #autoOrUpTo} returns it. */
    private static final int AUTO = -1;

    /** {@code auto} ({@link #AUTO}), or a whole number from 1 to {@code max}; null for anything else. */
    private static Integer autoOrUpTo(String v, int max) {
        if (v.equals("auto")) {
            return AUTO;
        }
        if (!v.matches("[0-9]{1,9}")) {
            return null;
        }
        int n = Integer.parseInt(v);
        return n >= 1 && n <= max ? n : null;
    }

    private static ReadAheadConfig readAhead(ConfigReader r) {
        ReadAheadConfig d = ReadAheadConfig.DEFAULT;
        ReadAheadConfig.Enabled enabled = r.parsed("enabled", d.enabled(), ReadAheadConfig.Enabled::parse,
            "auto, true or false");
        int connections = (int) r.integer("connections", d.connections(), 1, 16, false);
        int rows = (int) r.integer("rows", d.rows(), 1, 1_000_000, false);
        r.rejectUnknown();
        return new ReadAheadConfig(enabled, connections, rows);
    }

    private MetricsConfig metrics(ConfigReader r) {
        String listen = r.string("listen", null, false);
        MetricsConfig m = MetricsConfig.DEFAULT;
        if (listen != null) {
            String text = listen.trim();
            if (text.equalsIgnoreCase("off") || text.equalsIgnoreCase("false")) {
                m = MetricsConfig.OFF;
            } else {
                m = MetricsConfig.parseOrNull(text);
                if (m == null) {
                    r.problem("listen", "must be host:port such as 127.0.0.1:9104 ([::1]:9104 for IPv6, :9104 for every"
                        + " interface) or off, not " + ConfigReader.describe(text));
                    m = MetricsConfig.DEFAULT;
                }
            }
        }
        ConfigReader tls = r.section("tls");
        Path cert = pemFile(tls, "cert_file", true);
        Path key = pemFile(tls, "key_file", false);
        if (tls.has("cert_file") != tls.has("key_file")) {
            tls.problem(tls.has("cert_file") ? "key_file" : "cert_file", "is required with "
                + (tls.has("cert_file") ? "cert_file" : "key_file") + ": HTTPS needs both the certificate and its key");
        }
        if (key != null && PemFiles.readableByOthers(key)) {
            log.warn("{}: {} is readable by other users: chmod 600 it", tls.key("key_file"), key);
        }
        tls.rejectUnknown();
        ConfigReader auth = r.section("basic_auth");
        String user = auth.string("user", null, false);
        Secret password = null;
        if (user != null) {
            if (user.isEmpty() || user.contains(":")) {
                auth.problem("user", "must be a non-empty name without ':'");
            }
            // password_file (or password_env, or password, as for the servers' passwords)
            boolean given = auth.has("password_file") || auth.has("password_env") || auth.has("password");
            password = password(auth);
            if (!given) {
                auth.problem("password_file", "is required with user: a file holding the password (its first line)");
            } else if (password.value().isEmpty()) {
                auth.problem("password_file", "gives an empty password");
            }
        } else if (auth.has("password_file") || auth.has("password_env") || auth.has("password")) {
            auth.problem("user", "is required with a password");
        }
        auth.rejectUnknown();
        if (user != null && cert == null && m.enabled() && !loopback(m.host())) {
            log.warn("metrics.basic_auth over plain HTTP on {}: the password crosses the network in clear text; set"
                + " metrics.tls.cert_file and key_file", m.listen());
        }
        r.rejectUnknown();
        return cert == null && user == null ? m : m.secured(cert, key, user, password);
    }

    private static boolean loopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
    }

    private DurabilityConfig durability(ConfigReader r) {
        DurabilityConfig d = DurabilityConfig.DEFAULT;
        DurabilityMode mode = r.choice("mode", d.mode(), DurabilityMode.class);
        Duration threshold = r.duration("lag_threshold", d.lagThreshold(), Duration.ofSeconds(1));
        Duration strictAfter = r.duration("strict_after", d.strictAfter(), Duration.ofSeconds(1));
        r.rejectUnknown();
        return new DurabilityConfig(mode, threshold, strictAfter);
    }

    private VerifyConfig verify(ConfigReader r) {
        VerifyConfig d = VerifyConfig.DEFAULT;
        int chunkRows = (int) r.integer("chunk_rows", d.chunkRows(), 10, 1_000_000, false);
        long rate = r.integer("rows_per_second", d.rowsPerSecond(), 0, 1_000_000_000L, false);
        int attempts = (int) r.integer("attempts", d.attempts(), 2, 100, false);
        Duration catchUp = r.duration("catch_up_timeout", d.catchUpTimeout(), Duration.ofSeconds(1));
        r.rejectUnknown();
        return new VerifyConfig(chunkRows, rate, attempts, catchUp);
    }

    private static final java.util.Set<String> LEVELS = java.util.Set.of("trace", "debug", "info", "warn", "error", "off");

    /**
     * {@code level: info}, or per logger {@code level: { root: info, io.binlogapplier.pipeline: debug }};
     * {@code format: text|json}; {@code progress_interval} (0: no progress line).
     */
    private static LogConfig log(ConfigReader r) {
        LogConfig d = LogConfig.DEFAULT;
        String root = d.level();
        java.util.Map<String, String> levels = new java.util.LinkedHashMap<>();
        if (r.isMapping("level")) {
            for (java.util.Map.Entry<String, String> e : r.stringMap("level").entrySet()) {
                String level = e.getValue().trim().toLowerCase(java.util.Locale.ROOT);
                if (!LEVELS.contains(level)) {
                    r.problem("level." + e.getKey(), "must be one of trace, debug, info, warn, error, off, not '"
                        + e.getValue() + "'");
                } else if (e.getKey().equals("root")) {
                    root = level;
                } else {
                    levels.put(e.getKey(), level);
                }
            }
        } else {
            String level = r.string("level", root, false).trim().toLowerCase(java.util.Locale.ROOT);
            if (!LEVELS.contains(level)) {
                r.problem("level", "must be one of trace, debug, info, warn, error, off (or a mapping of logger names"
                    + " to levels), not '" + level + "'");
            } else {
                root = level;
            }
        }
        LogConfig.LogFormat format = r.choice("format", d.format(), LogConfig.LogFormat.class);
        Duration progress = r.duration("progress_interval", d.progressInterval(), Duration.ZERO);
        if (!progress.isZero() && progress.compareTo(Duration.ofSeconds(1)) < 0) {
            r.problem("progress_interval", "must be 0 (no progress line) or at least 1s, not " + progress.toMillis()
                + "ms");
        }
        r.rejectUnknown();
        return new LogConfig(root, levels, format, progress);
    }

    /** password, password_file or password_env: at most one. */
    private Secret password(ConfigReader r) {
        boolean plain = r.has("password");
        boolean file = r.has("password_file");
        boolean env = r.has("password_env");
        if ((plain ? 1 : 0) + (file ? 1 : 0) + (env ? 1 : 0) > 1) {
            r.problem("password", "give only one of password, password_file and password_env");
            return new Secret("");
        }
        if (file) {
            String path = r.string("password_file", "", false);
            try {
                String text = Files.readString(Path.of(path), StandardCharsets.UTF_8);
                if (PemFiles.readableByOthers(Path.of(path))) {
                    log.warn("{}: {} is readable by other users: chmod 600 it", r.key("password_file"), path);
                }
                return new Secret(firstLine(text));
            } catch (IOException | RuntimeException e) {
                r.problem("password_file", "cannot read '" + path + "' (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")");
                return new Secret("");
            }
        }
        if (env) {
            String var = r.string("password_env", "", false);
            String value = environment.apply(var);
            if (value == null) {
                r.problem("password_env", "environment variable '" + var + "' is not set");
                return new Secret("");
            }
            return new Secret(value);
        }
        return new Secret(r.text("password", "", "put it in quotes"));
    }

    /** A password file's first line, without its line ending (\n or \r\n). */
    static String firstLine(String text) {
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }
}
