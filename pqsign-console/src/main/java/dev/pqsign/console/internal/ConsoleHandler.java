package dev.pqsign.console.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Every route of the console. Read-only by construction: only GET and HEAD are answered, no route
 * takes a parameter, and the only files served are the fixed set bundled in the jar.
 */
public final class ConsoleHandler extends Handler.Abstract {

    /**
     * The page's scripts and styles come only from the console itself; no inline script, no eval, no
     * framing, no forms. {@code style-src} without {@code unsafe-inline} still lets the chart
     * library size its canvas through the style properties of DOM elements.
     */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String WEB = "/dev/pqsign/console/web/";

    /** Path on the page → bundled file and its content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/static/console.js", new String[] {"console.js", "text/javascript; charset=utf-8"},
            "/static/console.css", new String[] {"console.css", "text/css; charset=utf-8"},
            "/static/uPlot.iife.min.js", new String[] {"uPlot.iife.min.js", "text/javascript; charset=utf-8"},
            "/static/uPlot.min.css", new String[] {"uPlot.min.css", "text/css; charset=utf-8"},
            "/static/uPlot-LICENSE.txt", new String[] {"uPlot-LICENSE.txt", "text/plain; charset=utf-8"});

    /** Host names a loopback-only console answers to (besides its own bind address). */
    public static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "::1", "[::1]");

    private final Map<String, byte[]> bodies;
    private final ConsoleModel model;
    private final ConsoleMetrics metrics;
    private final EventHub hub;
    private final Set<String> allowedHosts;

    /**
     * @param allowedHosts for a console on loopback: the host names requests may name (lower case),
     *     so that a web page elsewhere cannot reach the console by rebinding its own DNS name to
     *     127.0.0.1; null for a console bound to a network address, which answers to any name
     */
    public ConsoleHandler(ConsoleModel model, ConsoleMetrics metrics, EventHub hub, Set<String> allowedHosts) {
        this.model = model;
        this.metrics = metrics;
        this.hub = hub;
        this.allowedHosts = allowedHosts;
        this.bodies = new HashMap<>();
        for (Map.Entry<String, String[]> e : FILES.entrySet()) {
            bodies.put(e.getKey(), load(e.getValue()[0]));
        }
    }

    private static byte[] load(String name) {
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(WEB + name)) {
            if (in == null) {
                throw new IllegalStateException("console resource missing from the jar: " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        HttpFields.Mutable h = response.getHeaders();
        h.put("Content-Security-Policy", CSP);
        h.put("X-Content-Type-Options", "nosniff");
        h.put("X-Frame-Options", "DENY");
        h.put("Referrer-Policy", "no-referrer");
        h.put("Cross-Origin-Resource-Policy", "same-origin");
        h.put("Cross-Origin-Opener-Policy", "same-origin");
        h.put(HttpHeader.CACHE_CONTROL, "no-store");

        String method = request.getMethod();
        boolean head = HttpMethod.HEAD.is(method);
        if (!head && !HttpMethod.GET.is(method)) {
            h.put(HttpHeader.ALLOW, "GET, HEAD");
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        if (allowedHosts != null
                && !allowedHosts.contains(Request.getServerName(request).toLowerCase(Locale.ROOT))) {
            Response.writeError(
                    request,
                    response,
                    callback,
                    HttpStatus.MISDIRECTED_REQUEST_421,
                    "this console answers only to localhost");
            return true;
        }
        String path = request.getHttpURI().getPath();
        if (request.getHttpURI().getQuery() != null) {
            // No route takes parameters; refusing them keeps every URL one fixed thing.
            Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400, "no query parameters");
            return true;
        }
        switch (path) {
            case "/healthz" ->
                send(response, callback, "text/plain; charset=utf-8", "ok\n".getBytes(StandardCharsets.US_ASCII));
            case "/metrics" -> send(response, callback, metrics.contentType(), metrics.scrape());
            case "/state" ->
                send(
                        response,
                        callback,
                        "application/json",
                        Json.write(model.snapshot()).getBytes(StandardCharsets.UTF_8));
            case "/events" -> {
                if (head) {
                    h.put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
                    callback.succeeded();
                } else if (!hub.open(response, callback)) {
                    Response.writeError(
                            request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, "too many open pages");
                }
            }
            default -> {
                byte[] body = bodies.get(path);
                if (body == null) {
                    Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                } else {
                    send(response, callback, FILES.get(path)[1], body);
                }
            }
        }
        return true;
    }

    private static void send(Response response, Callback callback, String type, byte[] body) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
