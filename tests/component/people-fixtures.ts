import type { PersonRow } from '../../server/src/modules/people/person/person';

/** The person behind a record of the people area, as the API answers it (masked ID number), named as a test needs. */
export const personRow = (name: string, overrides: Partial<PersonRow> = {}): PersonRow => ({
  personId: '9',
  name,
  gender: 'male',
  birthDate: null,
  idType: 'resident_id',
  idNoMasked: '1101**********002X',
  mobile: null,
  email: null,
  ethnicity: null,
  education: null,
  degree: null,
  ...overrides,
});
