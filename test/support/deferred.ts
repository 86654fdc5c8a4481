/** A promise and the function that resolves it: a gate a test opens when it chooses. */
export interface Gate {
  readonly promise: Promise<void>;
  /** Resolves `promise`; later calls do nothing. */
  open(): void;
}

/** A closed {@link Gate}. Fake server routes `await gate.promise` to hold a reply. */
export function createGate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
