"""The commands: `votal` and its subcommands, and the scheduled run."""
