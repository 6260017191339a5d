// Commands about the language server itself.
import type { CommandContext } from './index';

export function showOutput({ ctx }: CommandContext) {
  return (): void => ctx.output.show(true);
}

export function restartServer({ ctx }: CommandContext) {
  return async (): Promise<void> => {
    ctx.output.info('Restarting the server.');
    await ctx.restart();
  };
}

export function reloadSessions({ ctx }: CommandContext) {
  return async (): Promise<void> => {
    await ctx.reloadSessions();
  };
}
