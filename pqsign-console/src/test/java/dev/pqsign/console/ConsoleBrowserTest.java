package dev.pqsign.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.ReadingText;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in real headless Chromium, fed by a real sensor (Milo server, Ed25519 test double) and a
 * real operator over loopback OPC UA. Skips when Chromium or its driver is not installed (Debian:
 * {@code apt-get install chromium chromium-driver}); {@code -Dpqsign.chromium=PATH} and
 * {@code -Dpqsign.chromedriver=PATH} point elsewhere.
 */
class ConsoleBrowserTest {

    private static final Path CHROMIUM = Paths.get(System.getProperty("pqsign.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Paths.get(System.getProperty("pqsign.chromedriver", "/usr/bin/chromedriver"));
    /** Where the screenshots go (a build artifact, not committed). */
    private static final Path ARTIFACTS = Paths.get("target", "console-browser");
    /** The signature budget this test plays for the sensor's key, to show the key-status line. */
    private static final long BUDGET = 1024;

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private SequencedSigner signer;
    private FaultInjector faults;
    private SensorServer sensor;
    private ReplayGuard guard;
    private Operator operator;
    private ConsoleServer console;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        // In @BeforeEach, not @BeforeAll, so that the report counts the test as skipped, with this reason.
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "browser test skipped: needs " + CHROMIUM + " and " + CHROMEDRIVER
                        + " (Debian packages chromium and chromium-driver)");
        // Chromium starts while the sensor and operator do: both take seconds on a busy machine.
        CompletableFuture<ChromeDriver> starting = CompletableFuture.supplyAsync(this::startBrowser);
        try {
            console = ConsoleServer.start(ConsoleOptions.loopback(0));
            signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
            faults = new FaultInjector(new SensorKey(signer, key.keyId()));
            sensor = SensorServer.start(
                    SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE), faults.key());
            guard = ReplayGuard.inDirectory(dir.resolve("replay"));
            operator = new Operator(
                    new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                    new ReadingVerifier(
                            guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                    o -> console.verdict(o.event(), o.latency()));
            operator.connect("s1", sensor.endpointUrl());
            console.connectionState("s1", "connected");
        } finally {
            browser = starting.join();
        }
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    private ChromeDriver startBrowser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1280,800",
                "--no-first-run",
                "--user-data-dir=" + dir.resolve("chromium"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // The driver binary is given, so Selenium Manager never runs (it would try to download one).
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (operator != null) {
            operator.close();
        }
        if (guard != null) {
            guard.close();
        }
        if (sensor != null) {
            sensor.close();
        }
        if (signer != null) {
            signer.close();
        }
        if (console != null) {
            console.close();
        }
    }

    private long publish(double rpm) {
        long index =
                sensor.publish(ReadingText.format(rpm, Instant.now())).reading().index();
        console.keyStatus(
                "s1",
                Ed25519TestDouble.PARAMS.setName(),
                key.keyId().hex(),
                BUDGET - index - 1,
                (BUDGET - index - 1) * 0.5,
                false);
        return index;
    }

    private WebElement card() {
        return browser.findElement(By.cssSelector("article.card[data-sensor='s1']"));
    }

    private String field(String cls) {
        List<WebElement> found = browser.findElements(By.cssSelector("article.card[data-sensor='s1'] ." + cls));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private void awaitIndex(long index) {
        wait.withMessage(() -> "card never showed index " + index + "; shows " + field("index"))
                .until(d -> field("index").equals(String.valueOf(index)));
    }

    private Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    @Test
    void page_liveReadingsTamperedAndHtml_shownAsTheyAre() throws Exception {
        browser.get(console.uri().toString());
        wait.until(d -> "live".equals(d.findElement(By.id("live")).getText()));

        long last = -1;
        for (int i = 0; i < 5; i++) {
            last = publish(1500 + i);
        }
        awaitIndex(last);
        assertEquals("ACCEPTED", field("verdict"));
        assertEquals("connected", field("conn"));
        js("window.pqsignTestMarker = 'same page';");
        String acceptedBefore = field("accepted-count");

        for (int i = 0; i < 5; i++) {
            last = publish(1510 + i * 3);
        }
        awaitIndex(last);
        assertEquals("same page", js("return window.pqsignTestMarker;"), "the page reloaded");
        assertEquals("accepted 5", acceptedBefore);
        assertEquals("accepted 10", field("accepted-count"));
        assertTrue(
                field("remaining").startsWith(String.format(Locale.US, "%,d signatures", BUDGET - last - 1)),
                field("remaining"));

        // A reading changed after signing: rejected, with its reason on the card and in the feed.
        long tampered = faults.tampered(ReadingText.format(1600, Instant.now()), sensor::publish)
                .reading()
                .index();
        awaitIndex(tampered);
        assertEquals("REJECTED", field("verdict"));
        assertEquals("BAD_SIGNATURE", field("reason"));
        assertTrue(card().getAttribute("class").contains("v-REJECTED"));
        WebElement top = wait.until(d -> d.findElement(By.cssSelector("#feed li")));
        assertTrue(top.getText().contains("BAD_SIGNATURE") && top.getText().contains("#" + tampered), top.getText());

        // An index signed but never published: the next reading reveals the gap.
        long burnt = signer.signIndexed(i -> new byte[] {1}).index();
        last = publish(1520);
        awaitIndex(last);
        assertEquals(burnt + 1, last);
        wait.withMessage(() -> "gap count: " + field("gap-count"))
                .until(d -> field("gap-count").equals("gaps 1 (1 missing)"));
        WebElement gap = browser.findElement(By.cssSelector("#feed li"));
        assertEquals("GAP", gap.getAttribute("data-kind"));
        assertTrue(gap.getText().contains("#" + burnt), gap.getText());

        for (int i = 0; i < 20; i++) {
            last = publish(1500 + 40 * Math.sin(i / 3.0));
            Thread.sleep(20);
        }
        awaitIndex(last);
        wait.until(d -> !d.findElements(By.cssSelector("article.card[data-sensor='s1'] .chart canvas"))
                .isEmpty());
        wait.until(d -> !d.findElements(By.cssSelector("#latency canvas")).isEmpty());

        // A validly signed reading that carries markup and a right-to-left override.
        String hostile = "<script>window.pqsignPwned=1</script><b>bold</b><img src=x onerror=\"window.pqsignPwned=2\">"
                + "12\u202E345";
        long html = sensor.publish(hostile).reading().index();
        awaitIndex(html);
        assertEquals("ACCEPTED", field("verdict"));
        String shown = field("reading");
        assertTrue(shown.startsWith("<script>window.pqsignPwned=1</script><b>bold</b><img"), shown);
        assertTrue(shown.endsWith("12⟦U+202E⟧345"), shown);
        assertEquals("⚠ markup, bidi", field("reading-marks"));
        assertEquals(
                0,
                browser.findElements(By.cssSelector(".reading *, article.card script, article.card img"))
                        .size(),
                "markup from the reading became elements");
        assertNull(js("return window.pqsignPwned;"), "the reading's script ran");

        console.alarm("s1", "demo alarm: clock skew 2 s");
        wait.until(d -> d.findElement(By.cssSelector("#feed li")).getText().contains("clock skew"));

        assertEquals(
                true,
                js("return document.documentElement.scrollWidth <= window.innerWidth;"),
                "horizontal scrolling at 1280x800");
        Files.createDirectories(ARTIFACTS);
        Files.write(ARTIFACTS.resolve("console-1280x800.png"), browser.getScreenshotAs(OutputType.BYTES));

        browser.manage().window().setSize(new Dimension(390, 844));
        wait.until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d)
                .executeScript("return document.documentElement.scrollWidth <= window.innerWidth;")));
        Files.write(ARTIFACTS.resolve("console-phone.png"), browser.getScreenshotAs(OutputType.BYTES));

        // The probe proves the browser log is captured, so an empty list below means something.
        js("console.warn('pqsign-probe');");
        List<String> problems = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage)
                .collect(Collectors.toList());
        assertTrue(problems.stream().anyMatch(m -> m.contains("pqsign-probe")), problems.toString());
        assertEquals(
                List.of(),
                problems.stream().filter(m -> !m.contains("pqsign-probe")).collect(Collectors.toList()),
                "browser console warnings or errors (a CSP violation would show here)");

        // The Content-Security-Policy is in force: an inline script added to the page does not run.
        js("var s = document.createElement('script'); s.textContent = 'window.pqsignInline = 1;';"
                + " document.body.appendChild(s);");
        assertNull(js("return window.pqsignInline;"), "inline script ran despite the CSP");
    }
}
