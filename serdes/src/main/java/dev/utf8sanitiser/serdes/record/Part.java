package dev.utf8sanitiser.serdes.record;

/**
 * Which part of a record was checked: the value, the key, or one header's value. Its name is the
 * {@code __utf8.part} header: {@code value}, {@code key}, {@code header:NAME}.
 */
public record Part(String name) {
    public static final Part VALUE = new Part("value");
    public static final Part KEY = new Part("key");

    public static Part header(String headerName) {
        return new Part("header:" + headerName);
    }

    @Override
    public String toString() {
        return name;
    }
}
