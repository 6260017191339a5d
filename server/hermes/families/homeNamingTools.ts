// The tools whose schema names the profile's home (home-naming-tools.json, read in Hermes' code): a
// session's tools array, sent before its system prompt, then differs per profile and per home.
import os = require('node:os');
import { relativeInside } from '../pathFlavour';
import data from './home-naming-tools.json';

interface HomeNamingTool {
  readonly says: string;
  readonly home: 'display';
  readonly readAt: ReadonlyArray<{ readonly commit: string; readonly version: string; readonly file: string; readonly line: number }>;
}

const TOOLS: Readonly<Record<string, HomeNamingTool>> = (data as { tools: Record<string, HomeNamingTool> }).tools;

/** Whether `tool`'s schema names the profile's home. */
export function namesHome(tool: string): boolean {
  return Object.prototype.hasOwnProperty.call(TOOLS, tool);
}

/** What the schema says, with `<home>` where the home goes (for the reasons' words). */
export function homeSentenceOf(tool: string): string | undefined {
  return namesHome(tool) ? TOOLS[tool]!.says.replace('{display_hermes_home()}', '<home>') : undefined;
}

/**
 * The home as the schema writes it (hermes_constants.display_hermes_home): `~/…` under the user's
 * home folder, else the full path. The lens's own user is taken for Hermes' (one machine).
 */
export function displayedHome(profileDir: string, userHome: string = os.homedir()): string {
  const rel = relativeInside(userHome, profileDir);
  return rel ? `~/${rel.replace(/\\/g, '/')}` : profileDir;
}
