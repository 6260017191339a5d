// What a native binary is, read from its header: the object format (ELF, Mach-O, PE), whether it is
// a shared object, the processor it is built for, and on Linux the C library it links. Enough to
// tell that a binary shipped for a platform can be loaded there. No dependencies.

export interface BinaryKind {
  readonly os: 'linux' | 'darwin' | 'win32';
  readonly arch: 'x64' | 'arm64' | string;
  /** A library a process can load (ELF ET_DYN, Mach-O bundle or dylib, PE DLL). */
  readonly sharedObject: boolean;
  /** Linux only: the C library named among the binary's needed libraries. */
  readonly libc?: 'glibc' | 'musl';
}

const ELF_MACHINES: Record<number, string> = { 0x3e: 'x64', 0xb7: 'arm64' };
const MACHO_CPUS: Record<number, string> = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES: Record<number, string> = { 0x8664: 'x64', 0xaa64: 'arm64' };

export function binaryKind(bytes: Buffer): BinaryKind | undefined {
  if (bytes.length < 64) return undefined;
  if (bytes.readUInt32BE(0) === 0x7f454c46) return elf(bytes);
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const arch = MACHO_CPUS[bytes.readUInt32LE(4)] ?? `cpu 0x${bytes.readUInt32LE(4).toString(16)}`;
    const fileType = bytes.readUInt32LE(12);
    return { os: 'darwin', arch, sharedObject: fileType === 8 /* MH_BUNDLE */ || fileType === 6 /* MH_DYLIB */ };
  }
  if (bytes.readUInt16BE(0) === 0x4d5a /* MZ */) {
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.readUInt32BE(pe) !== 0x50450000 /* PE\0\0 */) return undefined;
    const machine = bytes.readUInt16LE(pe + 4);
    const characteristics = bytes.readUInt16LE(pe + 22);
    return { os: 'win32', arch: PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`, sharedObject: (characteristics & 0x2000) !== 0 /* IMAGE_FILE_DLL */ };
  }
  return undefined;
}

function elf(bytes: Buffer): BinaryKind | undefined {
  if (bytes[4] !== 2 || bytes[5] !== 1) return undefined; // 64-bit, little-endian: all the targets we ship
  const machine = bytes.readUInt16LE(18);
  const libc = bytes.includes('libc.musl-') ? 'musl' : bytes.includes('libc.so.6') ? 'glibc' : undefined;
  return { os: 'linux', arch: ELF_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`, sharedObject: bytes.readUInt16LE(16) === 3 /* ET_DYN */, ...(libc ? { libc } : {}) };
}
