import { setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** V8's full collection, made callable in this process without a command-line flag. */
const gc = runInNewContext('gc') as () => void;

/**
 * Collects until `ref` is cleared or 20 collections passed; says whether it was cleared. Each
 * collection runs in a turn of its own, before any `deref` in it: `deref` (and making the
 * WeakRef) keeps the target alive until the turn's end, whatever a collection then finds.
 */
export async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    await turn();
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}
