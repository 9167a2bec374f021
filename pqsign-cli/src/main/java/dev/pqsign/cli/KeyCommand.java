package dev.pqsign.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pqsign key}: management of stateful keys ({@code split}). */
@Command(
        name = "key",
        mixinStandardHelpOptions = true,
        description = "Manage stateful (XMSS / XMSS^MT) keys.",
        subcommands = {KeySplitCommand.class, CommandLine.HelpCommand.class})
final class KeyCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw CliException.usage("missing subcommand of 'pqsign key': split (see 'pqsign key --help')");
    }
}
