// The embedded server's admin socket. PGlite is one process's database, so while `fatura serve` holds the embedded
// database no other process may open it; the server therefore runs the CLI's procedures (`Administration`) for it,
// through a Unix socket in the data directory. The socket sits in a directory of mode 0700 and is itself 0600: only
// the user who runs the server may reach it, as only that user may read the database's files.
import { chmodSync, existsSync, lstatSync, mkdirSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { join } from "node:path"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import type { EmbeddedLock } from "@fatura/persistence"
import { Effect, Layer, Schema } from "effect"
import { RpcClient, RpcSerialization, RpcServer } from "effect/rpc"
import { SocketServer } from "effect/socket"
import { Admin, Administration, handlers } from "./Administration.js"

/** The directory of the socket of the embedded database in `dataDir`: only its user may enter it. */
export const directoryOf = (dataDir: string) => join(dataDir, "admin")

/** The socket of the embedded database in `dataDir`. */
export const pathOf = (dataDir: string) => join(directoryOf(dataDir), "fatura.sock")

/** The embedded database is held by a process that does not answer on its admin socket. */
export class ServerNotAnswering extends Schema.TaggedError<ServerNotAnswering>()("ServerNotAnswering", {
  dataDir: Schema.String,
  pid: Schema.Number,
  socket: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return (
      `the embedded database in ${this.dataDir} is in use by process ${this.pid}, and nothing answers on ` +
      `${this.socket} (${this.reason}): if it is a fatura server that is starting, try again; otherwise stop it, ` +
      "or use DATABASE_URL"
    )
  }
}

/** The socket cannot be served: its directory cannot be made this user's alone, or an old socket removed. */
export class AdminSocketUnusable extends Schema.TaggedError<AdminSocketUnusable>()("AdminSocketUnusable", {
  directory: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `no admin socket in ${this.directory}: ${this.reason}`
  }
}

/** Why `directory` is not a directory that only this process's user may enter, when it is not. */
const unlessPrivate = (directory: string): string | undefined => {
  const stat = lstatSync(directory, { throwIfNoEntry: false })
  if (stat === undefined) return "it does not exist"
  if (!stat.isDirectory()) return "it is not a directory"
  if (stat.uid !== process.getuid?.()) return `it belongs to user ${stat.uid}`
  const mode = stat.mode & 0o777
  return mode === 0o700 ? undefined : `its mode is ${mode.toString(8)}, not 700`
}

/**
 * Listens on the socket. This process holds the data directory's lock, so a socket already there was left by a
 * server that died: it is removed first. Closing the server removes the socket (Node unlinks it).
 */
const listening = (dataDir: string) =>
  Layer.effect(
    SocketServer.SocketServer,
    Effect.gen(function* () {
      const directory = directoryOf(dataDir)
      const path = pathOf(dataDir)
      yield* Effect.try({
        try: () => {
          mkdirSync(directory, { recursive: true, mode: 0o700 })
          const stat = lstatSync(directory)
          // This user's, but opened to others by hand: narrowed again.
          if (stat.isDirectory() && stat.uid === process.getuid?.()) chmodSync(directory, 0o700)
        },
        catch: (cause) => new AdminSocketUnusable({ directory, reason: String(cause) })
      })
      const unsafe = unlessPrivate(directory)
      if (unsafe !== undefined)
        return yield* new AdminSocketUnusable({ directory, reason: `it is not this user's alone: ${unsafe}` })
      yield* Effect.try({
        try: () => rmSync(path, { force: true }),
        catch: (cause) => new AdminSocketUnusable({ directory, reason: String(cause) })
      })
      const server = yield* NodeSocketServer.make({ path })
      chmodSync(path, 0o600)
      return server
    })
  )

/**
 * The embedded server's side: the procedures served on the socket. A socket that cannot be served leaves the server
 * serving its API without it (commands then say the database is in use), with a warning saying why.
 */
export const serve = (dataDir: string) =>
  RpcServer.layer(Administration).pipe(
    Layer.provide(handlers),
    Layer.provide(RpcServer.layerProtocolSocketServer),
    Layer.provide(listening(dataDir)),
    Layer.provide(RpcSerialization.layerNdjson),
    Layer.catchCause((cause) =>
      Layer.effectDiscard(
        Effect.logWarning("no admin socket: fatura commands cannot reach this server's database", cause)
      )
    )
  )

/** Whether anything answers on the socket: a server that died leaves its socket behind, and nothing listening. */
const answering = (path: string) =>
  Effect.callback<void, NodeJS.ErrnoException>((resume) => {
    const socket = connect(path)
    socket.once("connect", () => {
      socket.end()
      resume(Effect.void)
    })
    socket.once("error", (error) => resume(Effect.fail(error)))
    return Effect.sync(() => socket.destroy())
  })

/**
 * The CLI's side, when `inUse` says a process holds the embedded database: the procedures of the server that holds
 * it, through its socket — provided the socket is this user's alone and something answers on it.
 */
export const client = (inUse: EmbeddedLock.DataDirInUse) => {
  const path = pathOf(inUse.dataDir)
  const notAnswering = (reason: string) =>
    new ServerNotAnswering({ dataDir: inUse.dataDir, pid: inUse.pid, socket: path, reason })
  return Layer.unwrap(
    Effect.gen(function* () {
      const directory = directoryOf(inUse.dataDir)
      if (!existsSync(directory)) return yield* notAnswering("no admin socket")
      const unsafe = unlessPrivate(directory)
      if (unsafe !== undefined) return yield* notAnswering(`${directory} is not this user's alone: ${unsafe}`)
      yield* answering(path).pipe(Effect.mapError((error) => notAnswering(error.code ?? error.message)))
      return Layer.effect(Admin, RpcClient.make(Administration)).pipe(
        Layer.provide(RpcClient.layerProtocolSocket()),
        Layer.provide(NodeSocket.layerNet({ path })),
        Layer.provide(RpcSerialization.layerNdjson)
      )
    })
  )
}
