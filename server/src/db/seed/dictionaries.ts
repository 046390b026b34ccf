// not `dictionaries.json`: Node's require tries `.json` before `.ts`, so under Umi's mock `./dictionaries` would load it
import seeds from './dictionary-items.json';

/** A built-in dictionary type and its items: `[value, label, English label, tag colour]`. */
export interface DictSeed {
  code: string;
  name: string;
  items: [value: string, label: string, labelEn: string, color: string][];
}

/** The built-in dictionary types and their items, seeded on every start (data, in dictionary-items.json: the console's tests read it too). */
export const dictSeeds = seeds as DictSeed[];
