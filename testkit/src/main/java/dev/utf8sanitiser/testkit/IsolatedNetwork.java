package dev.utf8sanitiser.testkit;

import java.util.List;

/**
 * A private network for the nodes of a {@link KafkaCluster}, so that a test can cut one node off
 * from the others and from the clients (a network partition) and heal it again. Linux network
 * namespaces made with iproute2 ({@code ip netns}), which needs root:
 *
 * <ul>
 *   <li>a hub namespace holding a bridge (a namespace of its own, so the host's firewall rules for
 *       bridged traffic, such as those Docker installs, do not apply);
 *   <li>one namespace per node, joined to the bridge by a veth pair, with the address {@code
 *       10.213.S.(10 + node id)};
 *   <li>a veth pair from the host's namespace to the bridge with {@code 10.213.S.1}, through which
 *       this JVM and the processes it starts (sanitisers, clients) reach the nodes.
 * </ul>
 *
 * Cutting a node off takes its port on the bridge down: its packets, to and from everyone, are
 * dropped, and no connection is reset, as when a switch port or a link fails. Nothing leaves the
 * machine and the host's own interfaces are not touched; {@link #close} deletes the namespaces,
 * and with them every interface made here. The subnet {@code S} and the names derive from this
 * JVM's process id, so two test JVMs do not clash.
 */
public final class IsolatedNetwork implements AutoCloseable {
    private final String prefix;
    private final int subnet;
    private final List<Integer> nodeIds;
    private boolean closed; // guarded by this

    private IsolatedNetwork(String prefix, int subnet, List<Integer> nodeIds) {
        this.prefix = prefix;
        this.subnet = subnet;
        this.nodeIds = List.copyOf(nodeIds);
    }

    /**
     * Whether this machine lets the tests make network namespaces: Linux, iproute2 installed, and
     * the rights to add one (root). A test that needs them skips when this is false.
     */
    public static boolean available() {
        if (!HostCommand.onLinux()) {
            return false;
        }
        String probe = "usprobe" + ProcessHandle.current().pid();
        try {
            HostCommand.run("ip", "netns", "add", probe);
            HostCommand.run("ip", "netns", "del", probe);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Makes the hub, the host's link to it, and a namespace for each of {@code nodeIds}. */
    public static IsolatedNetwork create(List<Integer> nodeIds) {
        long pid = ProcessHandle.current().pid();
        IsolatedNetwork network = new IsolatedNetwork("us" + pid, (int) (pid % 250) + 1, nodeIds);
        try {
            network.build();
            return network;
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** The host's address on the bridge; the nodes see the clients coming from it. */
    public String hostAddress() {
        return "10.213." + subnet + ".1";
    }

    /** The address of {@code nodeId} in its namespace. */
    public String address(int nodeId) {
        requireNode(nodeId);
        return "10.213." + subnet + "." + (10 + nodeId);
    }

    /** The words that run a command in {@code nodeId}'s namespace: {@code ip netns exec <name>}. */
    public List<String> commandPrefix(int nodeId) {
        requireNode(nodeId);
        return List.of("ip", "netns", "exec", nodeNamespace(nodeId));
    }

    /** Cuts {@code nodeId} off from every other node and from the host: its bridge port goes down. */
    public synchronized void cutOff(int nodeId) {
        requireNode(nodeId);
        requireOpen();
        HostCommand.run("ip", "-n", hub(), "link", "set", port(nodeId), "down");
    }

    /** Joins {@code nodeId} to the others again. */
    public synchronized void reconnect(int nodeId) {
        requireNode(nodeId);
        requireOpen();
        HostCommand.run("ip", "-n", hub(), "link", "set", port(nodeId), "up");
    }

    /** Deletes every namespace made here (and so every interface). Idempotent; failures ignored. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int id : nodeIds) {
            deleteQuietly(nodeNamespace(id));
        }
        deleteQuietly(hub());
    }

    private void build() {
        String hub = hub();
        HostCommand.run("ip", "netns", "add", hub);
        HostCommand.run("ip", "-n", hub, "link", "set", "lo", "up");
        HostCommand.run("ip", "-n", hub, "link", "add", "br0", "type", "bridge");
        HostCommand.run("ip", "-n", hub, "link", "set", "br0", "up");
        // The host's end keeps a name unique on the host; the hub's ends need only be unique there.
        String hostEnd = prefix + "h";
        HostCommand.run("ip", "link", "add", hostEnd, "type", "veth", "peer", "name", "host", "netns", hub);
        HostCommand.run("ip", "addr", "add", hostAddress() + "/24", "dev", hostEnd);
        HostCommand.run("ip", "link", "set", hostEnd, "up");
        HostCommand.run("ip", "-n", hub, "link", "set", "host", "master", "br0", "up");
        for (int id : nodeIds) {
            String namespace = nodeNamespace(id);
            HostCommand.run("ip", "netns", "add", namespace);
            HostCommand.run("ip", "-n", namespace, "link", "set", "lo", "up");
            HostCommand.run(
                    "ip", "-n", hub, "link", "add", port(id), "type", "veth", "peer", "name", "eth0", "netns",
                    namespace);
            HostCommand.run("ip", "-n", namespace, "addr", "add", address(id) + "/24", "dev", "eth0");
            HostCommand.run("ip", "-n", namespace, "link", "set", "eth0", "up");
            HostCommand.run("ip", "-n", hub, "link", "set", port(id), "master", "br0", "up");
        }
    }

    private String hub() {
        return prefix + "-hub";
    }

    private String nodeNamespace(int nodeId) {
        return prefix + "-node" + nodeId;
    }

    private static String port(int nodeId) {
        return "node" + nodeId;
    }

    private void requireNode(int nodeId) {
        if (!nodeIds.contains(nodeId)) {
            throw new IllegalArgumentException("no node " + nodeId + "; the nodes are " + nodeIds);
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("The network has been deleted");
        }
    }

    private static void deleteQuietly(String namespace) {
        try {
            HostCommand.run("ip", "netns", "del", namespace);
        } catch (RuntimeException e) {
            // Never made, or already gone.
        }
    }
}
