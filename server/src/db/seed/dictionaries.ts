import seeds from './dictionaries.json';

/** A built-in dictionary type and its items: `[value, label, English label, tag colour]`. */
export interface DictSeed {
  code: string;
  name: string;
  items: [value: string, label: string, labelEn: string, color: string][];
}

/** The built-in dictionary types and their items, seeded on every start (data, in dictionaries.json: the console's tests read it too). */
export const dictSeeds = seeds as DictSeed[];
