import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The file in DATA_DIR whose lock marks the folder as taken; it holds the holder's pid, for the message only. */
export const LOCK_FILE = 'server.lock';

/**
 * fs-native-extensions' `tryLock`: an exclusive lock held by an open file (Linux `F_OFD_SETLK`,
 * macOS `flock`, Windows `LockFileEx`), which the operating system drops when that file is closed,
 * so when its process dies however it dies (docs/decisions/0001-data-folder-lock.md).
 */
interface FileLocks {
  tryLock(fd: number): boolean;
}

let locks: FileLocks | undefined;

/**
 * Loaded when first needed (a PostgreSQL process never loads the addon), and by `require` from
 * here at run time: the bundle leaves it to node_modules, where it finds its prebuilt binary.
 */
function fileLocks(): FileLocks {
  return (locks ??= createRequire(import.meta.url)('fs-native-extensions') as FileLocks);
}

/**
 * Takes DATA_DIR for this process, or throws naming who has it: two PGlite instances on one folder
 * silently lose writes. Returns what gives it back. The lock file is never deleted: a process that
 * opened it just before its removal would lock a file nobody else can find, and two would run.
 */
export function lockDataFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  // Not truncated on open: the holder's pid stays readable to the one that is refused.
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = fileLocks().tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) {
    const holder = readFileSync(file, 'utf8').trim();
    const who = /^\d+$/.test(holder) ? `process ${holder}` : 'another process';
    throw new Error(`${dataDir} is in use by ${who} (a server on this data folder); stop it or set DATA_DIR to another folder`);
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let open = true;
  return () => {
    if (open) closeSync(fd);
    open = false;
  };
}
