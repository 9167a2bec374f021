package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** pqsign's unchecked exceptions: one hierarchy, messages and causes passed through unchanged. */
class ExceptionsTest {

    @Test
    void everyException_isAPqSignExceptionAndUnchecked() {
        assertInstanceOf(PqSignException.class, new KeyFormatException("m"));
        assertInstanceOf(PqSignException.class, new KeyExhaustedException("m"));
        assertInstanceOf(PqSignException.class, new StatePersistenceException("m"));
        assertInstanceOf(RuntimeException.class, new PqSignException("m"));
    }

    @Test
    void constructors_keepMessageAndCause() {
        IOException cause = new IOException("disk");
        assertEquals("bad magic", new KeyFormatException("bad magic").getMessage());
        assertNull(new KeyFormatException("bad magic").getCause());
        assertSame(cause, new KeyFormatException("x", cause).getCause());
        assertSame(cause, new StatePersistenceException("x", cause).getCause());
        assertSame(cause, new PqSignException("x", cause).getCause());
        assertEquals("exhausted", new KeyExhaustedException("exhausted").getMessage());
        assertEquals("y", new StatePersistenceException("y").getMessage());
    }
}
