// The hermes-prompt grammar gives tier boundaries and markers scopes of their own. A small line-level
// interpreter (JS RegExp; the grammar's regexes use no Oniguruma-only syntax) runs it over a prompt.
import * as assert from 'node:assert/strict';
import { readRootFile } from './packageJson';

interface Rule {
  include?: string;
  match?: string;
  begin?: string;
  end?: string;
  name?: string;
  captures?: Record<string, { name: string }>;
  beginCaptures?: Record<string, { name: string }>;
  endCaptures?: Record<string, { name: string }>;
  patterns?: Rule[];
}
interface Grammar {
  scopeName: string;
  patterns: Rule[];
  repository: Record<string, Rule>;
}

const grammar: Grammar = JSON.parse(readRootFile('syntaxes/hermes-prompt.tmLanguage.json'));

function expand(rules: Rule[]): Rule[] {
  return rules.flatMap((r) => {
    if (r.include) {
      const target = grammar.repository[r.include.slice(1)];
      assert.ok(target, `unknown include ${r.include}`);
      return target.match || target.begin ? [target] : expand(target.patterns ?? []);
    }
    return [r];
  });
}

function scopesOf(m: RegExpExecArray, name: string | undefined, captures: Rule['captures']): string[] {
  const out = name ? [name] : [];
  for (const [i, c] of Object.entries(captures ?? {})) if (m[Number(i)] !== undefined) out.push(c.name);
  return out;
}

/** Scopes found on each line (every rule that matches somewhere), tracking begin/end blocks. */
function tokenize(text: string): string[][] {
  const top = expand(grammar.patterns);
  let block: Rule | undefined;
  return text.split('\n').map((line) => {
    if (block) {
      const end = new RegExp(block.end!).exec(line);
      if (end) {
        const scopes = [block.name!, ...scopesOf(end, undefined, block.endCaptures)];
        block = undefined;
        return scopes;
      }
      return [block.name!, ...matches(expand(block.patterns ?? []), line)];
    }
    for (const r of top) {
      if (!r.begin) continue;
      const m = new RegExp(r.begin).exec(line);
      if (m) {
        block = r;
        return [r.name!, ...scopesOf(m, undefined, r.beginCaptures)];
      }
    }
    return matches(top, line);
  });
}

function matches(rules: Rule[], line: string): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (!r.match) continue;
    const m = new RegExp(r.match).exec(line);
    if (m) {
      out.push(...scopesOf(m, r.name, r.captures));
      if (r.match.startsWith('^')) break; // a line-anchored rule claims the line (first one wins)
    }
  }
  return out;
}

const FRAME = '═'.repeat(46);
const PROMPT = [
  'You are a careful assistant.',
  '',
  '# Project Context',
  '',
  'The following project context files have been loaded and should be followed:',
  '',
  '## AGENTS.md',
  '',
  '## Build',
  'Run make.',
  '## ../AGENTS.md',
  '',
  '[BLOCKED: ../AGENTS.md contained potential prompt injection (prompt_injection). Content not loaded.]',
  'Active Hermes profile: work. This session reads and writes /h/profiles/work/.',
  '',
  '## Skills',
  '<available_skills>',
  '  devops: Deploying things',
  '    - terraform: Plan and apply',
  '    - bare-skill',
  '</available_skills>',
  '',
  FRAME,
  'MEMORY (your personal notes) [12% — 264/2,200 chars]',
  FRAME,
  'likes tabs',
  '§',
  'USER PROFILE (who the user is) [100% — 1,400/1,375 chars ⚠ OVER BUDGET]',
  '',
  '<!-- hermes-plugin-sections:start -->',
  '## Plugin Context: my.plugin',
  '<!-- hermes-plugin-section-chars:12 -->',
  '<!-- hermes-plugin-sections:end -->',
  '',
  'Conversation started: Monday, January 05, 2026 (UTC, UTC+00:00)',
  'Model: claude-sonnet-4',
  'Provider: anthropic',
  'Platform: cli',
  '',
  '# Hermes runtime environment',
  '',
  'Host: Linux (6.1)',
  'Current working directory: /work/proj',
  '',
  '<!-- End Hermes runtime environment -->',
].join('\n');

describe('client: hermes-prompt grammar', () => {
  const lines = PROMPT.split('\n');
  const tokens = tokenize(PROMPT);
  const at = (text: string) => {
    const i = lines.indexOf(text);
    assert.ok(i >= 0, `no line ${text}`);
    return tokens[i]!.join(' ');
  };

  it('is the scope package.json declares, with only JS-compatible regexes', () => {
    assert.equal(grammar.scopeName, 'text.hermes-prompt');
    const walk = (r: Rule) => {
      for (const re of [r.match, r.begin, r.end]) if (re) assert.doesNotThrow(() => new RegExp(re), re);
      (r.patterns ?? []).forEach(walk);
    };
    Object.values(grammar.repository).forEach(walk);
  });

  it('marks the project context and its file sections', () => {
    assert.match(at('# Project Context'), /keyword\.control\.marker\.project-context/);
    assert.match(at('## AGENTS.md'), /entity\.name\.section\.context-file/);
    assert.match(at('## ../AGENTS.md'), /entity\.name\.section\.context-file/);
    assert.doesNotMatch(at('## Build'), /context-file/);
    assert.match(at('## Build'), /markup\.heading/);
    assert.match(at(lines[12]!), /invalid\.illegal\.blocked/);
    assert.match(at(lines[13]!), /keyword\.control\.marker\.active-profile.*entity\.name\.profile/);
  });

  it('marks the skills index', () => {
    assert.match(at('## Skills'), /keyword\.control\.marker\.skills/);
    assert.match(at('<available_skills>'), /meta\.block\.skills-index.*keyword\.control\.marker\.skills-index/);
    assert.match(at('  devops: Deploying things'), /entity\.name\.type\.skill-category/);
    assert.match(at('    - terraform: Plan and apply'), /entity\.name\.function\.skill.*string\.unquoted\.skill-description/);
    assert.match(at('    - bare-skill'), /entity\.name\.function\.skill/);
    assert.match(at('</available_skills>'), /keyword\.control\.marker\.skills-index/);
  });

  it('marks the memory frames', () => {
    assert.match(at(FRAME), /keyword\.control\.marker\.memory-frame/);
    assert.match(at('MEMORY (your personal notes) [12% — 264/2,200 chars]'), /entity\.name\.section\.memory.*constant\.numeric\.memory-usage/);
    assert.match(at('§'), /punctuation\.separator\.memory-entry/);
    assert.match(at(lines[27]!), /invalid\.illegal\.over-budget/);
  });

  it('marks plugin sections, the trailer and the runtime block', () => {
    assert.match(at('<!-- hermes-plugin-sections:start -->'), /keyword\.control\.marker\.plugin-sections/);
    assert.match(at('## Plugin Context: my.plugin'), /keyword\.control\.marker\.plugin-context.*entity\.name\.tag\.plugin-id/);
    assert.match(at('Conversation started: Monday, January 05, 2026 (UTC, UTC+00:00)'), /keyword\.control\.marker\.conversation-started/);
    for (const l of ['Model: claude-sonnet-4', 'Provider: anthropic', 'Platform: cli']) assert.match(at(l), /keyword\.other\.trailer/);
    assert.match(at('# Hermes runtime environment'), /keyword\.control\.marker\.runtime-environment\.begin/);
    assert.match(at('Host: Linux (6.1)'), /meta\.block\.runtime-environment.*variable\.other\.key\.runtime/);
    assert.match(at('<!-- End Hermes runtime environment -->'), /keyword\.control\.marker\.runtime-environment\.end/);
    assert.doesNotMatch(at('You are a careful assistant.'), /./);
  });
});
