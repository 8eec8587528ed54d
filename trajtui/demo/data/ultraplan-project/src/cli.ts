import { Command } from "commander";

const program = new Command("ledgerline");
program.command("export").option("--format <name>", "csv or jsonl", "csv");
const schedule = program.command("schedule");
for (const sub of ["add", "list", "remove", "run"]) schedule.command(sub);
program.parse();
