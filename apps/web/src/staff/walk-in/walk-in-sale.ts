import { EMPTY_DETAILS } from '@kringle/contracts/booking-details';
import { walkInBodySchema, type PaidWith } from '@kringle/contracts/staff';
import { childField, NO_CHILD, type DetailsInput } from './whos-coming-fields';

/** Everything about the family, cleared after each sale. */
export interface Family {
  firstName: string;
  lastName: string;
  email: string;
  details: DetailsInput;
  quantities: Record<string, number>;
  /** How they paid: asked each time, never defaulted. */
  paidWith: PaidWith | '';
}
export const NEW_FAMILY: Family = {
  firstName: '',
  lastName: '',
  email: '',
  details: { ...EMPTY_DETAILS, children: [NO_CHILD] },
  quantities: {},
  paidWith: '',
};

/** Fields that show their own message (the children's too); the body's other problems are listed under the form. */
const FIELDS = ['firstName', 'lastName', 'email', 'packages', 'paidWith'] as const;
type Field = (typeof FIELDS)[number];
const isField = (key: unknown): key is Field => FIELDS.includes(key as Field);
const isChildField = (key: unknown): key is 'firstName' | 'age' => key === 'firstName' || key === 'age';

/** The sale as the API takes it, and which of the form's child rows it sends (`rows[n]` is the body's child n). */
export function walkInBody(
  family: Family,
  slotId: string | undefined,
  packages: { id: string }[],
  addOns: { id: string }[],
  allowsPets: boolean,
) {
  const { details, quantities } = family;
  const lines = (items: { id: string }[]) =>
    items.filter((p) => (quantities[p.id] ?? 0) > 0).map((p) => ({ id: p.id, quantity: quantities[p.id]! }));
  const email = family.email.trim();
  // A row left empty is no child (a family of adults); one with a name or an age is, and needs both.
  const rows = details.children.flatMap((c, i) => (c.firstName.trim() || c.age !== null ? [i] : []));
  const body = {
    slotId,
    firstName: family.firstName,
    lastName: family.lastName,
    ...(email ? { email } : {}),
    // Pets only for a session that takes them: a number typed for a pet night is not sold with another session.
    details: { ...details, pets: allowsPets ? details.pets : 0, children: rows.map((i) => details.children[i]!) },
    packages: lines(packages),
    addOns: lines(addOns),
    ...(family.paidWith ? { paidWith: family.paidWith } : {}),
  };
  return { body, rows };
}

export interface SaleCheck {
  ok: boolean;
  /** Messages shown beside their fields, keyed by field name (a child's by childField). */
  fieldErrors: Partial<Record<string, string>>;
  /** The body's other problems, listed under the form. */
  others: string[];
  /** The first field in the form's order with a message: it takes the focus. */
  first: string | undefined;
}

/** The API's own rules, checked here first so each message shows beside its field. */
export function checkWalkIn(family: Family, body: ReturnType<typeof walkInBody>['body'], rows: number[]): SaleCheck {
  const { details } = family;
  const checked = walkInBodySchema.safeParse(body);
  const fieldErrors: Partial<Record<string, string>> = {};
  const others: string[] = [];
  for (const issue of checked.error?.issues ?? []) {
    const [key, list, n, field] = issue.path;
    const row =
      key === 'details' && list === 'children' && typeof n === 'number' && isChildField(field) ? rows[n] : undefined;
    if (isField(key)) fieldErrors[key] ??= issue.message;
    else if (row !== undefined && field === 'age' && details.children[row]!.age === null)
      fieldErrors[childField(row, 'age')] ??= `Choose an age for child ${row + 1}.`;
    else if (row !== undefined && isChildField(field)) fieldErrors[childField(row, field)] ??= issue.message;
    else others.push(issue.message);
  }
  const order = [
    'firstName',
    'lastName',
    'email',
    ...details.children.flatMap((_, i) => [childField(i, 'firstName'), childField(i, 'age')]),
    'packages',
    'paidWith',
  ];
  return { ok: checked.success, fieldErrors, others, first: order.find((f) => fieldErrors[f]) };
}
