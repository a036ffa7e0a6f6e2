// The bank's SFTP server: one user, its client, who signs in with the key the bank generated for it, and sees two
// folders — `remessa`, where it uploads (new files, renamed when complete, never overwriting one the bank took), and
// `retorno`, where it reads what the bank wrote. Nothing else of the disk is reachable.
import { timingSafeEqual } from "node:crypto"
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
  writeSync
} from "node:fs"
import type { AddressInfo } from "node:net"
import { join, posix } from "node:path"
import ssh2 from "ssh2"

const { Server, utils } = ssh2
const { OPEN_MODE, STATUS_CODE } = utils.sftp

export interface SftpOptions {
  readonly root: string
  readonly host: string
  readonly port: number
  readonly hostKey: string
  readonly user: string
  /** The client's public key, as `ssh-ed25519 AAAA…`. */
  readonly clientPublicKey: string
  /** How long the bank takes to acknowledge a remessa it took (the simulator's switch): a slow bank. */
  readonly receiptDelayMs: () => number
  readonly log: (message: string, fields?: Record<string, unknown>) => void
}

export interface Sftp {
  readonly port: number
  readonly close: () => Promise<void>
}

const folders = ["remessa", "retorno"] as const

/** A client's path as a path on disk, or null when it leads outside the two folders. */
const resolveIn = (root: string, path: string): { readonly disk: string; readonly folder: string | null } | null => {
  const normal = posix.normalize(posix.join("/", path))
  if (normal === "/") return { disk: root, folder: null }
  const [, folder, ...rest] = normal.split("/")
  if (folder === undefined || !(folders as ReadonlyArray<string>).includes(folder) || rest.length > 1) return null
  return { disk: join(root, folder, ...rest), folder }
}

const attrsOf = (stats: Stats) => ({
  mode: stats.mode,
  uid: 0,
  gid: 0,
  size: stats.size,
  atime: Math.floor(stats.atimeMs / 1000),
  mtime: Math.floor(stats.mtimeMs / 1000)
})

export const start = (options: SftpOptions): Promise<Sftp> => {
  const allowed = utils.parseKey(options.clientPublicKey)
  if (allowed instanceof Error) throw allowed
  const allowedKey = Array.isArray(allowed) ? allowed[0] : allowed
  const clients = new Set<ssh2.Connection>()
  const server = new Server({ hostKeys: [options.hostKey] }, (client) => {
    clients.add(client)
    client.on("close", () => clients.delete(client))
    client.on("authentication", (context) => {
      const user = Buffer.from(context.username)
      const expected = Buffer.from(options.user)
      const rightUser = user.length === expected.length && timingSafeEqual(user, expected)
      if (context.method !== "publickey" || !rightUser) return context.reject(["publickey"])
      const key = allowedKey.getPublicSSH()
      const same =
        context.key.algo === allowedKey.type &&
        context.key.data.length === key.length &&
        timingSafeEqual(context.key.data, key)
      if (!same) return context.reject(["publickey"])
      if (context.signature !== undefined && context.blob !== undefined) {
        return allowedKey.verify(context.blob, context.signature, context.hashAlgo) === true
          ? context.accept()
          : context.reject(["publickey"])
      }
      return context.accept()
    })
    client.on("ready", () => {
      client.on("session", (accept) => {
        const session = accept()
        session.on("sftp", (acceptSftp) => {
          const sftp = acceptSftp()
          const files = new Map<number, { readonly fd: number; readonly path: string }>()
          const directories = new Map<
            number,
            { readonly entries: Array<string>; readonly path: string; read: boolean }
          >()
          let nextHandle = 1
          const handleOf = (buffer: Buffer) => (buffer.length === 4 ? buffer.readUInt32BE(0) : -1)
          const newHandle = () => {
            const buffer = Buffer.alloc(4)
            buffer.writeUInt32BE(nextHandle++)
            return buffer
          }
          const denied = (reqId: number) => sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED)
          const missing = (reqId: number) => sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE)

          sftp.on("REALPATH", (reqId, path) => {
            const normal = posix.normalize(posix.join("/", path))
            sftp.name(reqId, [{ filename: normal, longname: normal, attrs: {} as never }])
          })
          sftp.on("STAT", (reqId, path) => stat(reqId, path))
          sftp.on("LSTAT", (reqId, path) => stat(reqId, path))
          const stat = (reqId: number, path: string) => {
            const place = resolveIn(options.root, path)
            if (place === null || !existsSync(place.disk)) return missing(reqId)
            sftp.attrs(reqId, attrsOf(statSync(place.disk)))
          }
          sftp.on("OPEN", (reqId, filename, flags) => {
            const place = resolveIn(options.root, filename)
            if (place === null || place.folder === null) return denied(reqId)
            const writing = (flags & OPEN_MODE.WRITE) !== 0
            // The client writes an upload in progress (`.part`) in `remessa` only; a remessa appears when it renames
            // one, so the bank never reads a file half written. It reads retornos, and its own uploads.
            if (writing && (place.folder !== "remessa" || !place.disk.endsWith(".part"))) {
              return denied(reqId)
            }
            if (!writing && !existsSync(place.disk)) return missing(reqId)
            const fd = openSync(place.disk, writing ? "w" : "r")
            const handle = newHandle()
            files.set(handleOf(handle), { fd, path: place.disk })
            sftp.handle(reqId, handle)
          })
          sftp.on("WRITE", (reqId, handle, offset, data) => {
            const file = files.get(handleOf(handle))
            if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE)
            writeSync(file.fd, data, 0, data.length, offset)
            sftp.status(reqId, STATUS_CODE.OK)
          })
          sftp.on("READ", (reqId, handle, offset, length) => {
            const file = files.get(handleOf(handle))
            if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE)
            const buffer = Buffer.alloc(length)
            const read = readSync(file.fd, buffer, 0, length, offset)
            if (read === 0) return sftp.status(reqId, STATUS_CODE.EOF)
            sftp.data(reqId, buffer.subarray(0, read))
          })
          sftp.on("FSTAT", (reqId, handle) => {
            const file = files.get(handleOf(handle))
            if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE)
            sftp.attrs(reqId, attrsOf(fstatSync(file.fd)))
          })
          sftp.on("FSETSTAT", (reqId) => sftp.status(reqId, STATUS_CODE.OK))
          sftp.on("SETSTAT", (reqId) => sftp.status(reqId, STATUS_CODE.OK))
          sftp.on("CLOSE", (reqId, handle) => {
            const number = handleOf(handle)
            const file = files.get(number)
            if (file !== undefined) {
              closeSync(file.fd)
              files.delete(number)
            } else if (!directories.delete(number)) return sftp.status(reqId, STATUS_CODE.FAILURE)
            sftp.status(reqId, STATUS_CODE.OK)
          })
          sftp.on("OPENDIR", (reqId, path) => {
            const place = resolveIn(options.root, path)
            if (place === null || !existsSync(place.disk) || !statSync(place.disk).isDirectory()) return missing(reqId)
            const entries = place.folder === null ? [...folders] : readdirSync(place.disk).sort()
            const handle = newHandle()
            directories.set(handleOf(handle), { entries, path: place.disk, read: false })
            sftp.handle(reqId, handle)
          })
          sftp.on("READDIR", (reqId, handle) => {
            const directory = directories.get(handleOf(handle))
            if (directory === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE)
            if (directory.read) return sftp.status(reqId, STATUS_CODE.EOF)
            directory.read = true
            if (directory.entries.length === 0) return sftp.status(reqId, STATUS_CODE.EOF)
            sftp.name(
              reqId,
              directory.entries.map((name) => {
                const stats = statSync(join(directory.path, name))
                const kind = stats.isDirectory() ? "d" : "-"
                return {
                  filename: name,
                  longname: `${kind}rw-r--r-- 1 bank bank ${stats.size} ${name}`,
                  attrs: attrsOf(stats)
                }
              })
            )
          })
          sftp.on("RENAME", (reqId, from, to) => {
            const source = resolveIn(options.root, from)
            const target = resolveIn(options.root, to)
            // An upload is completed by renaming its `.part` in `remessa` to a name no file has.
            if (
              source?.folder !== "remessa" ||
              target?.folder !== "remessa" ||
              !source.disk.endsWith(".part") ||
              !existsSync(source.disk) ||
              existsSync(target.disk)
            ) {
              return denied(reqId)
            }
            renameSync(source.disk, target.disk)
            options.log("remessa received", { file: posix.basename(to) })
            // The file is the bank's from here: a client that dies before the answer comes has still delivered it.
            const delay = options.receiptDelayMs()
            if (delay > 0) setTimeout(() => sftp.status(reqId, STATUS_CODE.OK), delay)
            else sftp.status(reqId, STATUS_CODE.OK)
          })
          for (const unsupported of ["REMOVE", "RMDIR", "MKDIR", "READLINK", "SYMLINK"] as const) {
            sftp.on(unsupported, (reqId: number) => denied(reqId))
          }
        })
      })
    })
    client.on("error", (error) => options.log("sftp client error", { error: error.message }))
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            for (const client of clients) client.end()
          })
      })
    })
  })
}
