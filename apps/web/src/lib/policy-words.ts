/** "once", "twice", "3 times": how the policy texts say a limit. */
export const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** "1 hour", "48 hours". */
export const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);
