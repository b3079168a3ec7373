/**
 * @module eval/conversations/third-templates
 * The third half of the conversation set's words (issue 23, Evaluation): the same five facts in other statements,
 * changes, questions, asides and reactions than the dev half (templates.ts) and the held-out half
 * (held-out-templates.ts), written last for probing; kept as written, so some values and seven sentences recur in
 * the other halves. Never tuned on: core/recall's rules were written without it, and it is only measured (section E,
 * its own seed). Written for this set, no outside data. Placeholders as in templates.ts.
 */
import type { FactKind, FactTemplates } from './templates.js';

export const THIRD_FACTS: Readonly<Record<FactKind, FactTemplates>> = {
  city: {
    values: ['Bergen', 'Krakow', 'Nairobi', 'Halifax', 'Seville', 'Adelaide', 'Ghent', 'Kyoto', 'Tucson', 'Cork'],
    state: [
      'Our flat in {v} has a tiny balcony.',
      'Everything in {v} closes early on Sundays.',
      'I rent a room in {v}, close to the station.',
      'The view from my window in {v} is mostly rooftops.',
    ],
    change: [
      'Signed the lease in {v} today, bye bye {old}.',
      'First night sleeping in {v}, it feels strange.',
      'Said goodbye to {old}, the new address is in {v}.',
      'Our furniture arrived in {v} this morning.',
    ],
    current: [
      'Which town does {p} call home at the moment?',
      'In what city is {p} residing currently?',
      'Where is {p} staying these days?',
    ],
    before: [
      'Which town was {p} in prior to {new}?',
      'Where was {p} residing ahead of {new}?',
      'What city did {p} leave for {new}?',
    ],
    when: ['When did {p} get to {v}?', 'On what date did {p} arrive in {v}?', 'When was {p} first in {v}?'],
    at: ['In which town was {p} {date}?', 'Where was {p} residing {date}?'],
    aside: [
      'A cousin of mine studied in {v}.',
      'The flights to {v} got cheaper.',
      'I read a novel set in {v} last year.',
    ],
    reaction: ['{p}, is {v} as rainy as they say?', 'Enjoy {v}, {p}!', 'Tell us about {v}, {p}.'],
  },
  employer: {
    values: [
      'Granite Mutual',
      'Fernhill',
      'Cobalt Robotics',
      'Bluewater Bank',
      'Maple Analytics',
      'Ridgeway Media',
      'Sparrow Telecom',
      'Arcadia Labs',
      'Copperline',
      'Tundra Games',
    ],
    state: [
      'My team at {v} ships every Thursday.',
      'The canteen at {v} is surprisingly good.',
      '{v} pays for my train ticket.',
      'I spend my days writing reports for {v}.',
    ],
    change: [
      'Today was my first day at {v}.',
      'Handed in my notice at {old}; {v} made me an offer I liked.',
      'Signed the contract with {v}, goodbye {old}.',
      'My badge for {v} came in the post, {old} took mine back.',
    ],
    current: [
      'Who employs {p} at the moment?',
      'Which firm pays {p} currently?',
      'Who is {p} with professionally right now?',
    ],
    before: [
      'Who employed {p} prior to {new}?',
      'Which firm was {p} at ahead of {new}?',
      'Where was {p} employed until {new}?',
    ],
    when: [
      'When was {p} hired by {v}?',
      'On what date did {p} begin with {v}?',
      'When did {p} get the contract with {v}?',
    ],
    at: ['Who employed {p} {date}?', 'Which firm was {p} with {date}?'],
    aside: [
      '{v} sponsors the local football club.',
      'I saw an advert for {v} on the bus.',
      'My uncle retired from {v}.',
    ],
    reaction: ['{p}, good luck at {v}!', 'Is {v} a nice place, {p}?', 'Well done on {v}, {p}.'],
  },
  editor: {
    values: ['Kate', 'Nano', 'Xcode', 'Eclipse', 'Fleet', 'Kakoune', 'Atom', 'Notepad'],
    state: [
      'Every line I write goes through {v}.',
      'I keep {v} open all day.',
      'Half my muscle memory is {v} shortcuts.',
      'I code in {v}, nothing fancy.',
    ],
    change: [
      'Deleted {old} from my laptop, {v} from here on.',
      'Tried {v} for a week and I am not going back to {old}.',
      'Goodbye {old}, hello {v}.',
      'My new setup is {v}; {old} felt slow.',
    ],
    current: [
      'Which IDE does {p} code with currently?',
      'What tool does {p} program in at the moment?',
      'What is {p} programming with right now?',
    ],
    before: [
      'Which IDE did {p} code with prior to {new}?',
      'What tool did {p} program in ahead of {new}?',
      'What was {p} using until {new}?',
    ],
    when: ['When did {p} adopt {v}?', 'When did {p} begin coding with {v}?', 'On what date did {p} pick {v}?'],
    at: ['Which IDE did {p} program with {date}?', 'What tool was {p} coding with {date}?'],
    aside: ['{v} had a big update recently.', 'A colleague swears by {v}.', 'The {v} docs are a mess.'],
    reaction: ['{p}, show me {v} sometime.', 'Is {v} any good, {p}?', 'Bold choice with {v}, {p}.'],
  },
  store: {
    values: ['Oracle', 'MariaDB', 'Firestore', 'Couchbase', 'Neo4j', 'ClickHouse', 'Elasticsearch', 'Spanner'],
    state: [
      'All the records of {proj} sit in {v}.',
      '{v} holds the data of {proj}.',
      '{proj} talks to {v} for everything.',
      'Our backups of {proj} are {v} dumps.',
    ],
    change: [
      'Cut over {proj} to {v} last night, {old} is switched off.',
      '{proj} data lives in {v} since the weekend; {old} is gone.',
      'Finished porting {proj} from {old} over to {v}.',
      'Retired {old}: {proj} reads and writes {v} now.',
    ],
    current: [
      'Which datastore backs {proj} at the moment?',
      'Where does {proj} keep its records currently?',
      'What holds the data of {proj} right now?',
    ],
    before: [
      'Which datastore backed {proj} prior to {new}?',
      'Where did {proj} keep its records ahead of {new}?',
      'What held the data of {proj} until {new}?',
    ],
    when: [
      'When did {proj} cut over to {v}?',
      'When did {p} port {proj} to {v}?',
      'On what date did {proj} go to {v}?',
    ],
    at: ['Which datastore backed {proj} {date}?', 'Where did {proj} keep its records {date}?'],
    aside: ['{v} licensing is a headache.', 'Someone benchmarked {v} at work.', 'I keep meaning to learn {v}.'],
    reaction: ['{p}, was {v} hard to set up?', 'Any surprises with {v}, {p}?', '{v} for {proj}? Nice, {p}.'],
  },
  hobby: {
    values: ['knitting', 'surfing', 'archery', 'baking', 'birdwatching', 'fencing', 'gardening', 'sailing'],
    state: [
      'My free time goes into {v}.',
      'Nothing relaxes me like {v}.',
      'I spent the whole Saturday on {v} again.',
      'The club I go to for {v} meets on Sundays.',
    ],
    change: [
      'Sold my {old} gear and signed up for {v}.',
      'These days it is {v} for me, {old} got boring.',
      'Found a {v} group nearby, so {old} is over.',
      'My first {v} class was brilliant; no time for {old} now.',
    ],
    current: [
      'How does {p} spend free time currently?',
      'What pastime does {p} have at the moment?',
      'What does {p} do for fun right now?',
    ],
    before: [
      'What pastime did {p} have prior to {new}?',
      'How did {p} spend free time ahead of {new}?',
      'What did {p} do for fun until {new}?',
    ],
    when: ['When did {p} begin {v}?', 'When did {p} sign up for {v}?', 'On what date did {p} pick up {v}?'],
    at: ['What pastime did {p} have {date}?', 'How did {p} spend free time {date}?'],
    aside: ['There is a {v} shop down the road.', 'I watched a documentary on {v}.', 'My aunt loves {v}.'],
    reaction: ['{p}, {v} sounds fun!', 'How is {v} going, {p}?', 'Photos of your {v}, {p}?'],
  },
};
