#!/usr/bin/env node
// `chronograph-migrate` (the package's bin): copies a thread, or every thread
// of a database, between LangGraph.js's own SqliteSaver or PostgresSaver
// (`--*-format langgraph`: @langchain/langgraph-checkpoint-sqlite or
// -postgres, installed by the application) and chronograph/langgraph's
// compact ones (`--*-format compact`), either way; verifies every tuple
// read back equal (exit 1 on a mismatch) and reports the sizes before and
// after. The copy itself is checkpoint/migrate.js.
//
//   chronograph-migrate --from sqlite:old.sqlite --from-format langgraph \
//                       --to sqlite:new.sqlite --to-format compact [--thread ID]...
//   chronograph-migrate --from postgres:postgres://u@host/db --from-format langgraph \
//                       --to postgres:postgres://u@host/db --to-format compact [--from-schema S] [--to-schema S]
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const USAGE = `usage: chronograph-migrate --from sqlite:PATH|postgres:URL --from-format langgraph|compact
                           --to sqlite:PATH|postgres:URL --to-format langgraph|compact
                           [--thread ID]... [--from-schema NAME] [--to-schema NAME] [--json]`;

/** Loads one of LangGraph.js's checkpoint packages from the application (where it is installed). */
async function langgraphPackage(name) {
  for (const base of [import.meta.url, pathToFileURL(`${process.cwd()}/`).href]) {
    try {
      return await import(pathToFileURL(createRequire(base).resolve(name)).href);
    } catch (error) {
      if (error?.code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new Error(`--*-format langgraph needs ${name}: install it (npm install ${name})`);
}

/** The saver at `where` (`sqlite:PATH` or `postgres:URL`) in `format`, with a `size()` of its storage in bytes and a `close()`. */
async function openSaver(where, format, schema) {
  // Loaded here, not at the top: `--help` works without LangGraph.js's packages installed.
  const { PostgresSaver, SqliteSaver } = await import("./langgraph-node.js");
  const [kind, ...rest] = where.split(":");
  const target = rest.join(":");
  if (!["langgraph", "compact"].includes(format)) throw new Error(`unknown format ${JSON.stringify(format)}: langgraph or compact`);
  if (kind === "sqlite") {
    const Saver = format === "compact" ? SqliteSaver : (await langgraphPackage("@langchain/langgraph-checkpoint-sqlite")).SqliteSaver;
    const saver = Saver.fromConnString(target);
    // The file with its -wal and -shm files: what the saver costs on disk.
    const size = async () => ["", "-wal", "-shm"].reduce((n, s) => n + (existsSync(target + s) ? statSync(target + s).size : 0), 0);
    return { saver, size, close: async () => saver.db.close() };
  }
  if (kind === "postgres") {
    const options = { schema: schema ?? "public" };
    const Saver = format === "compact" ? PostgresSaver : (await langgraphPackage("@langchain/langgraph-checkpoint-postgres")).PostgresSaver;
    const saver = Saver.fromConnString(target, options);
    await saver.setup();
    // pg_total_relation_size of the format's tables (both formats may share a schema).
    const tables = format === "compact" ? "c.relname LIKE 'chronograph\\_%'" : "c.relname IN ('checkpoints', 'checkpoint_blobs', 'checkpoint_writes', 'checkpoint_migrations')";
    const size = async () =>
      Number(
        (
          await saver.pool.query(
            `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' AND ${tables}`,
            [options.schema],
          )
        ).rows[0].bytes,
      );
    return { saver, size, close: () => saver.end() };
  }
  throw new Error(`unknown store ${JSON.stringify(where)}: sqlite:PATH or postgres:URL`);
}

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;

async function main() {
  const { values } = parseArgs({
    options: {
      from: { type: "string" },
      "from-format": { type: "string" },
      to: { type: "string" },
      "to-format": { type: "string" },
      thread: { type: "string", multiple: true },
      "from-schema": { type: "string" },
      "to-schema": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (!values.from || !values.to || !values["from-format"] || !values["to-format"]) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const from = await openSaver(values.from, values["from-format"], values["from-schema"]);
  const to = await openSaver(values.to, values["to-format"], values["to-schema"]);
  try {
    const sizes = { from: await from.size(), toBefore: await to.size() };
    const { copyThreads } = await import("./checkpoint/migrate.js");
    const report = await copyThreads(from.saver, to.saver, values.thread);
    sizes.toAfter = await to.size();
    if (values.json) console.log(JSON.stringify({ ...report, sizes }));
    else {
      console.log(`copied ${report.threads.length} thread(s), ${report.checkpoints} checkpoints, ${report.writes} pending writes`);
      console.log(`source (${values["from-format"]}): ${mb(sizes.from)}; target (${values["to-format"]}): ${mb(sizes.toBefore)} before, ${mb(sizes.toAfter)} after`);
      if (report.renumbered.length > 0) {
        console.log(`channel versions renumbered in ${report.renumbered.join(", ")} (a replay or fork gave one version two values there)`);
      }
      for (const m of report.mismatches) console.log(`MISMATCH ${m.checkpoint}: ${m.where}`);
      console.log(report.mismatches.length === 0 ? "every tuple read back equal" : `${report.mismatches.length} tuple(s) read back different`);
    }
    if (report.mismatches.length > 0) process.exitCode = 1;
  } finally {
    await from.close();
    await to.close();
  }
}

main().catch((error) => {
  console.error(`chronograph-migrate: ${error?.message ?? error}`);
  process.exitCode = 2;
});
