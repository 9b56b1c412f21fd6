package dev.utf8sanitiser.serdes.protobuf;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumOptions;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.squareup.wire.Syntax;
import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.EnumConstantElement;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.ExtendElement;
import com.squareup.wire.schema.internal.parser.ExtensionsElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.GroupElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.OptionElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import com.squareup.wire.schema.internal.parser.TypeElement;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.registry.UnusableSchemaException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A registry's {@code .proto} texts made into protobuf-java descriptors.
 *
 * <p><b>Why Square's wire-schema to parse, and protobuf-java to link:</b> protobuf-java reads only
 * compiled descriptors ({@code FileDescriptorProto}), never {@code .proto} text, and the walk's
 * oracle is protobuf-java's own parser, so the walk must see the very descriptors it would:
 * wire-schema's {@link ProtoParser} turns the text into a syntax tree (as Confluent's own
 * serializers do), this class writes that tree as {@code FileDescriptorProto}s, and protobuf-java's
 * {@link FileDescriptor#buildFrom} resolves names and checks them as protoc would. Only what
 * reading the wire format needs is carried over: types, field numbers, labels, packing, map
 * entries, groups, oneofs, extensions and their ranges, and {@code java_string_check_utf8}.
 * wire-schema 7 cannot parse editions ({@code edition = "2023"}): such a schema, or one that imports
 * such a file, is unusable, and the reason says so.
 *
 * <p>Imports come from the schema's references; protobuf's own well-known files ({@code
 * google/protobuf/timestamp.proto}...) need none. Anything that cannot be parsed or linked is
 * {@link UnusableSchemaException}.
 */
public final class ProtoFiles {
    private static final Pattern MAP = Pattern.compile("map\\s*<\\s*([\\w.]+)\\s*,\\s*([\\w.]+)\\s*>");
    private static final Map<String, FieldDescriptorProto.Type> SCALARS = Map.ofEntries(
            Map.entry("double", FieldDescriptorProto.Type.TYPE_DOUBLE),
            Map.entry("float", FieldDescriptorProto.Type.TYPE_FLOAT),
            Map.entry("int32", FieldDescriptorProto.Type.TYPE_INT32),
            Map.entry("int64", FieldDescriptorProto.Type.TYPE_INT64),
            Map.entry("uint32", FieldDescriptorProto.Type.TYPE_UINT32),
            Map.entry("uint64", FieldDescriptorProto.Type.TYPE_UINT64),
            Map.entry("sint32", FieldDescriptorProto.Type.TYPE_SINT32),
            Map.entry("sint64", FieldDescriptorProto.Type.TYPE_SINT64),
            Map.entry("fixed32", FieldDescriptorProto.Type.TYPE_FIXED32),
            Map.entry("fixed64", FieldDescriptorProto.Type.TYPE_FIXED64),
            Map.entry("sfixed32", FieldDescriptorProto.Type.TYPE_SFIXED32),
            Map.entry("sfixed64", FieldDescriptorProto.Type.TYPE_SFIXED64),
            Map.entry("bool", FieldDescriptorProto.Type.TYPE_BOOL),
            Map.entry("string", FieldDescriptorProto.Type.TYPE_STRING),
            Map.entry("bytes", FieldDescriptorProto.Type.TYPE_BYTES));
    private static final Map<String, FileDescriptor> WELL_KNOWN = wellKnown();
    /** Comments, which may stand before a file's first statement. */
    private static final Pattern COMMENTS = Pattern.compile("//[^\\n]*|/\\*(?s:.*?)\\*/");
    /** An editions file's first statement: {@code edition = "2023";}. */
    private static final Pattern EDITION = Pattern.compile("\\A\\s*edition\\s*=\\s*([\"'])([^\"'\\n]*)\\1");

    private final int id;
    private final ProtobufSchemaText text;
    private final Map<String, FileDescriptor> built = new HashMap<>();
    private final Set<String> building = new HashSet<>();

    private ProtoFiles(int id, ProtobufSchemaText text) {
        this.id = id;
        this.text = text;
    }

    /**
     * The descriptor of schema id {@code id}'s file, its imports built first.
     *
     * @throws UnusableSchemaException a text wire-schema cannot parse, an import no reference names,
     *     or descriptors protobuf-java refuses
     */
    public static FileDescriptor descriptor(int id, ProtobufSchemaText text) {
        return new ProtoFiles(id, text).build("schema id " + id, text.schema(), "");
    }

    private FileDescriptor build(String name, String schema, String which) {
        Matcher edition = EDITION.matcher(COMMENTS.matcher(schema).replaceAll(" "));
        if (edition.find()) {
            throw unusable("declares edition \"" + edition.group(2) + "\"" + which
                    + ": Protobuf editions are not supported, only syntax proto2 and proto3");
        }
        ProtoFileElement element;
        try {
            element = ProtoParser.Companion.parse(Location.get(name), schema);
        } catch (RuntimeException e) {
            throw unusable("is not Protobuf text wire-schema can parse" + which + ": " + e.getMessage());
        }
        List<FileDescriptor> dependencies = new ArrayList<>();
        List<String> imports = new ArrayList<>(element.getImports());
        imports.addAll(element.getPublicImports());
        imports.addAll(element.getWeakImports());
        for (String imported : imports) {
            dependencies.add(imported(imported));
        }
        FileDescriptorProto proto = file(name, element, imports);
        try {
            return FileDescriptor.buildFrom(proto, dependencies.toArray(new FileDescriptor[0]));
        } catch (DescriptorValidationException | RuntimeException e) {
            throw unusable("is not a schema protobuf-java can link" + which + ": " + e.getMessage());
        }
    }

    private FileDescriptor imported(String name) {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        String schema = text.imports().get(name);
        if (schema == null) {
            FileDescriptor known = WELL_KNOWN.get(name);
            if (known != null) {
                return known;
            }
            throw unusable("imports " + name + ", which none of its references names");
        }
        if (!building.add(name)) {
            throw unusable("imports form a cycle at " + name);
        }
        FileDescriptor file = build(name, schema, " (imported as " + name + ")");
        building.remove(name);
        built.put(name, file);
        return file;
    }

    private UnusableSchemaException unusable(String what) {
        String message = "Schema id " + id + " " + what;
        return new UnusableSchemaException(id, message.length() > 500 ? message.substring(0, 500) + "..." : message);
    }

    private static FileDescriptorProto file(String name, ProtoFileElement element, List<String> imports) {
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName(name);
        if (element.getPackageName() != null) {
            file.setPackage(element.getPackageName());
        }
        file.setSyntax(element.getSyntax() == Syntax.PROTO_3 ? "proto3" : "proto2");
        file.addAllDependency(imports);
        int publicStart = element.getImports().size();
        for (int i = 0; i < element.getPublicImports().size(); i++) {
            file.addPublicDependency(publicStart + i);
        }
        int weakStart = publicStart + element.getPublicImports().size();
        for (int i = 0; i < element.getWeakImports().size(); i++) {
            file.addWeakDependency(weakStart + i);
        }
        FileOptions.Builder options = FileOptions.newBuilder();
        Boolean check = bool(element.getOptions(), "java_string_check_utf8");
        if (check != null) {
            options.setJavaStringCheckUtf8(check);
        }
        file.setOptions(options);
        for (TypeElement type : element.getTypes()) {
            if (type instanceof MessageElement message) {
                file.addMessageType(message(message));
            } else if (type instanceof EnumElement enumeration) {
                file.addEnumType(enumeration(enumeration));
            }
        }
        for (ExtendElement extend : element.getExtendDeclarations()) {
            for (FieldElement field : extend.getFields()) {
                file.addExtension(field(field, null).setExtendee(extend.getName()));
            }
        }
        return file.build();
    }

    private static DescriptorProto message(MessageElement element) {
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(element.getName());
        for (FieldElement field : element.getFields()) {
            message.addField(field(field, message));
        }
        for (GroupElement group : element.getGroups()) {
            group(message, group, -1);
        }
        for (OneOfElement oneOf : element.getOneOfs()) {
            int index = message.getOneofDeclCount();
            message.addOneofDecl(OneofDescriptorProto.newBuilder().setName(oneOf.getName()));
            for (FieldElement field : oneOf.getFields()) {
                message.addField(field(field, message).setOneofIndex(index));
            }
            for (GroupElement group : oneOf.getGroups()) {
                group(message, group, index);
            }
        }
        for (TypeElement nested : element.getNestedTypes()) {
            if (nested instanceof MessageElement inner) {
                message.addNestedType(message(inner));
            } else if (nested instanceof EnumElement enumeration) {
                message.addEnumType(enumeration(enumeration));
            }
        }
        for (ExtensionsElement extensions : element.getExtensions()) {
            for (Object range : extensions.getValues()) {
                DescriptorProto.ExtensionRange.Builder extensionRange = DescriptorProto.ExtensionRange.newBuilder();
                if (range instanceof Integer number) {
                    extensionRange.setStart(number).setEnd(number + 1);
                } else if (range instanceof kotlin.ranges.IntRange numbers) {
                    extensionRange.setStart(numbers.getFirst()).setEnd(numbers.getLast() + 1);
                }
                message.addExtensionRange(extensionRange);
            }
        }
        for (ExtendElement extend : element.getExtendDeclarations()) {
            for (FieldElement field : extend.getFields()) {
                message.addExtension(field(field, null).setExtendee(extend.getName()));
            }
        }
        return message.build();
    }

    private static void group(DescriptorProto.Builder message, GroupElement group, int oneOf) {
        DescriptorProto.Builder type = DescriptorProto.newBuilder().setName(group.getName());
        for (FieldElement field : group.getFields()) {
            type.addField(field(field, type));
        }
        message.addNestedType(type);
        FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder()
                .setName(group.getName().toLowerCase(Locale.ROOT))
                .setNumber(group.getTag())
                .setLabel(label(group.getLabel()))
                .setType(FieldDescriptorProto.Type.TYPE_GROUP)
                .setTypeName(group.getName());
        if (oneOf >= 0) {
            field.setOneofIndex(oneOf);
        }
        message.addField(field);
    }

    /** A field; a map field adds its entry type to {@code message}. */
    private static FieldDescriptorProto.Builder field(FieldElement element, DescriptorProto.Builder message) {
        FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder()
                .setName(element.getName())
                .setNumber(element.getTag())
                .setLabel(label(element.getLabel()));
        Matcher map = MAP.matcher(element.getType());
        if (map.matches() && message != null) {
            String entry = entryName(element.getName());
            message.addNestedType(DescriptorProto.newBuilder()
                    .setName(entry)
                    .setOptions(MessageOptions.newBuilder().setMapEntry(true))
                    .addField(typed(
                                    FieldDescriptorProto.newBuilder()
                                            .setName("key")
                                            .setNumber(1),
                                    map.group(1))
                            .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL))
                    .addField(typed(
                                    FieldDescriptorProto.newBuilder()
                                            .setName("value")
                                            .setNumber(2),
                                    map.group(2))
                            .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)));
            field.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED).setTypeName(entry);
        } else {
            typed(field, element.getType());
        }
        FieldOptions.Builder options = FieldOptions.newBuilder();
        Boolean packed = bool(element.getOptions(), "packed");
        if (packed != null) {
            options.setPacked(packed);
        }
        field.setOptions(options);
        return field;
    }

    /** A scalar's type, or a type name left for protobuf-java to resolve to a message or enum. */
    private static FieldDescriptorProto.Builder typed(FieldDescriptorProto.Builder field, String type) {
        FieldDescriptorProto.Type scalar = SCALARS.get(type);
        return scalar != null ? field.setType(scalar) : field.setTypeName(type);
    }

    /** protoc's name for a map field's entry type: {@code tag_counts} becomes {@code TagCountsEntry}. */
    private static String entryName(String field) {
        StringBuilder name = new StringBuilder();
        boolean upper = true;
        for (char c : field.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                name.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return name.append("Entry").toString();
    }

    private static FieldDescriptorProto.Label label(Field.Label label) {
        if (label == null) {
            return FieldDescriptorProto.Label.LABEL_OPTIONAL;
        }
        return switch (label) {
            case REQUIRED -> FieldDescriptorProto.Label.LABEL_REQUIRED;
            case REPEATED -> FieldDescriptorProto.Label.LABEL_REPEATED;
            default -> FieldDescriptorProto.Label.LABEL_OPTIONAL;
        };
    }

    private static EnumDescriptorProto enumeration(EnumElement element) {
        EnumDescriptorProto.Builder enumeration =
                EnumDescriptorProto.newBuilder().setName(element.getName());
        Set<Integer> numbers = new HashSet<>();
        boolean aliases = false;
        for (EnumConstantElement constant : element.getConstants()) {
            aliases |= !numbers.add(constant.getTag());
            enumeration.addValue(EnumValueDescriptorProto.newBuilder()
                    .setName(constant.getName())
                    .setNumber(constant.getTag()));
        }
        Boolean allowAlias = bool(element.getOptions(), "allow_alias");
        if (aliases || allowAlias != null) {
            enumeration.setOptions(EnumOptions.newBuilder().setAllowAlias(allowAlias == null || allowAlias));
        }
        return enumeration.build();
    }

    private static Boolean bool(List<OptionElement> options, String name) {
        for (OptionElement option : options) {
            if (option.getName().equals(name)) {
                return Boolean.parseBoolean(String.valueOf(option.getValue()));
            }
        }
        return null;
    }

    private static Map<String, FileDescriptor> wellKnown() {
        Map<String, FileDescriptor> files = new HashMap<>();
        for (FileDescriptor file : List.of(
                com.google.protobuf.AnyProto.getDescriptor(),
                com.google.protobuf.ApiProto.getDescriptor(),
                com.google.protobuf.DescriptorProtos.getDescriptor(),
                com.google.protobuf.DurationProto.getDescriptor(),
                com.google.protobuf.EmptyProto.getDescriptor(),
                com.google.protobuf.FieldMaskProto.getDescriptor(),
                com.google.protobuf.SourceContextProto.getDescriptor(),
                com.google.protobuf.StructProto.getDescriptor(),
                com.google.protobuf.TimestampProto.getDescriptor(),
                com.google.protobuf.TypeProto.getDescriptor(),
                com.google.protobuf.WrappersProto.getDescriptor())) {
            files.put(file.getName(), file);
        }
        return Map.copyOf(files);
    }
}
