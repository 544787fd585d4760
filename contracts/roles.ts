/** The roles an agent joins with (zod-free: FLEET_HOME/sessions is read by the lean hook runner too). */
export const ROLES = ['worker', 'builder', 'verifier', 'rte', 'operator'] as const;
export type Role = (typeof ROLES)[number];
