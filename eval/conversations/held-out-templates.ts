/**
 * @module eval/conversations/held-out-templates
 * The held-out half of the conversation set's words (issue 23, Evaluation): the same five facts, written in other
 * words than the dev half (templates.ts) — other values, other statements, changes, questions, asides and
 * reactions, in several styles (plain, chatty, terse, a change told by its date, a change told by what was left),
 * so that a rule tuned on the dev half meets phrasings it has never seen. Disjoint from the dev half sentence by
 * sentence; written for this set, no outside data. Placeholders as in templates.ts.
 */
import type { FactKind, FactTemplates } from './templates.js';

export const HELD_OUT_FACTS: Readonly<Record<FactKind, FactTemplates>> = {
  city: {
    values: ['Lyon', 'Boston', 'Krakow', 'Melbourne', 'Bristol', 'Sapporo', 'Riga', 'Seville', 'Halifax', 'Glasgow'],
    state: [
      "These days I'm based in {v}.",
      'I rent a tiny apartment in {v}, right above a bakery.',
      '{v} has been home for a while now.',
      "I'm a {v} resident, for better or worse.",
      'Our flat in {v} gets great light in the mornings.',
      'Greetings from {v}, where I spend most of my days.',
    ],
    change: [
      'I relocated to {v} at the start of the month.',
      'Packed up for {v}; the van left {old} yesterday.',
      'New address: {v}! Goodbye {old}.',
      'We sold the place in {old} and bought a house in {v}.',
      "I've been in {v} since the spring, {old} feels far away already.",
      'The lease in {old} ran out, so I took a flat in {v}.',
      'Officially a {v} local now.',
      'Said goodbye to {old} and unpacked my last box in {v} tonight.',
    ],
    current: [
      'What city does {p} call home at present?',
      'Where is {p} living at the moment?',
      "What's {p}'s current city?",
      'In which town does {p} reside today?',
    ],
    before: [
      'Which city did {p} leave for {new}?',
      'Where was home for {p} prior to {new}?',
      'What city did {p} live in until going to {new}?',
    ],
    when: ['When did {p} arrive in {v}?', 'On what date did {p} settle in {v}?', 'When did {v} become home for {p}?'],
    at: ['What city was {p} in {date}?', 'Where was {p} staying {date}?', "Which town was {p}'s home {date}?"],
    aside: [
      'The marathon in {v} is supposed to be brutal.',
      'I had the best noodles of my life in {v}.',
      'Flights to {v} got so expensive this year.',
      'A colleague of mine grew up near {v}.',
    ],
    reaction: [
      'Is the rent in {v} as bad as they say, {p}?',
      '{p}, you have to show me around {v} some day.',
      'Welcome to {v}, {p}!',
    ],
  },
  employer: {
    values: [
      'Redwood Analytics',
      'Copperline',
      'Bluefin Media',
      'Granite Works',
      'Meadow Bank',
      'Silverpine',
      'Harbor Robotics',
      'Foxglove Labs',
      'Ironbridge Capital',
      'Marigold Travel',
    ],
    state: [
      "I'm an engineer at {v}.",
      '{v} pays my bills, I build their billing service.',
      'I spend my weekdays at {v} writing APIs.',
      'My team at {v} ships every Thursday.',
      "I'm employed by {v}, on the platform group.",
    ],
    change: [
      'I took a job at {v}, first day was today.',
      "I've been at {v} since March; {old} is behind me.",
      'Handed in my notice at {old}; {v} made me a great offer.',
      'Said yes to {v}! Leaving {old} after three years.',
      'New badge, new desk: I work for {v} now.',
      'Signed the contract with {v} this week.',
      'I resigned from {old} and I start at {v} on the first.',
      'Farewell drinks at {old} tonight, then onwards to {v}.',
    ],
    current: [
      'Who is {p} employed by at the moment?',
      "What's {p}'s current company?",
      'Which firm does {p} do their job at today?',
      'Who does {p} work for at present?',
    ],
    before: [
      'Which firm employed {p} prior to {new}?',
      'Who was {p} working for until {new} hired them?',
      'Where was {p} employed before getting hired by {new}?',
    ],
    when: [
      'When did {p} get hired by {v}?',
      'On what date did {p} sign with {v}?',
      'When was {p} first employed at {v}?',
    ],
    at: ['Who employed {p} {date}?', 'Which firm was {p} at {date}?', 'Who was {p} working for {date}?'],
    aside: [
      "{v}'s office downtown has a rooftop garden.",
      'I keep seeing ads for {v} on the bus.',
      'Rumour is {v} is hiring like crazy.',
      'My uncle did some consulting for {v} ages ago.',
    ],
    reaction: [
      '{p}, does {v} let you work remotely?',
      'Huge, {p}! {v} is lucky to have you.',
      'What is the team like at {v}, {p}?',
    ],
  },
  editor: {
    values: ['Xcode', 'Eclipse', 'Kate', 'Nano', 'PyCharm', 'WebStorm', 'Atom', 'TextMate'],
    state: [
      '{v} is open on my screen all day.',
      'Nothing beats {v} for me when I program.',
      'All my projects get edited in {v}.',
      'I type every line of code into {v}.',
      "I'm loyal to {v}, it fits how I think.",
    ],
    change: [
      'Migrated my whole setup to {v}; {old} is gone.',
      'I ditched {old} this week and I now program in {v}.',
      'Converted to {v}! Never opening {old} again.',
      "{old} kept crashing, so I'm on {v} for good.",
      'Took the plunge and adopted {v} as my editor.',
      'My dotfiles are all about {v} now that {old} is uninstalled.',
      "Been editing in {v} since last month and I don't miss {old}.",
    ],
    current: [
      'What program does {p} edit code with at present?',
      "What's {p}'s current coding tool?",
      'Which IDE is {p} on today?',
      'What does {p} program in at the moment?',
    ],
    before: [
      'Which editor did {p} abandon for {new}?',
      'What did {p} program in prior to {new}?',
      'Which IDE did {p} have until {new} came along?',
    ],
    when: ['When did {p} adopt {v}?', 'On what date did {p} convert to {v}?', 'When did {p} begin editing in {v}?'],
    at: ['What did {p} edit code with {date}?', 'Which IDE was {p} on {date}?', 'What did {p} program in {date}?'],
    aside: [
      'The {v} release notes this month were long.',
      'A student asked me how to install {v} today.',
      'Our intern swears by {v} keyboard shortcuts.',
      'There was a funny thread about {v} themes online.',
    ],
    reaction: [
      '{p}, which {v} theme do you use?',
      'Welcome to the {v} club, {p}.',
      'How long did it take you to learn {v}, {p}?',
    ],
  },
  store: {
    values: ['MariaDB', 'Oracle', 'Firestore', 'ClickHouse', 'Elasticsearch', 'Couchbase', 'Neo4j', 'BigQuery'],
    state: [
      'All the data of {proj} lives in {v}.',
      '{proj} is backed by {v}.',
      'Our {proj} service persists everything to {v}.',
      '{v} holds the tables for {proj}.',
      "{proj}'s records sit in a {v} cluster.",
    ],
    change: [
      'Cut over {proj} to {v} last night; {old} is switched off.',
      '{proj} now persists to {v} instead of {old}.',
      'We ported {proj} onto {v}.',
      'Goodbye {old}: every table of {proj} sits in {v} since Tuesday.',
      'The {proj} data got copied into {v} and {old} is retired.',
      'Decommissioned {old}; {proj} talks to {v} from now on.',
      'Rewrote the persistence layer of {proj} around {v}.',
    ],
    current: [
      'What is {proj} backed by at present?',
      "What's the current database of {proj}?",
      'Where does {p} keep the data of {proj} today?',
      'Which engine holds the records of {proj} at the moment?',
    ],
    before: [
      'What did {proj} persist to prior to {new}?',
      'Which engine held the data of {proj} until {new}?',
      "What backed {p}'s {proj} before the cut-over to {new}?",
    ],
    when: [
      'When did {proj} cut over to {v}?',
      'On what date did {p} port {proj} onto {v}?',
      'When did {v} start holding the data of {proj}?',
    ],
    at: ['What backed {proj} {date}?', 'Where did {proj} keep its data {date}?', 'Which engine held {proj} {date}?'],
    aside: [
      'The {v} docs are surprisingly readable.',
      'My old boss refused to pay for {v} licences.',
      'There is a {v} meetup in town next month.',
      'I broke a {v} index in production once, never again.',
    ],
    reaction: [
      '{p}, was {v} painful to set up?',
      'How fast is {proj} on {v}, {p}?',
      'Bold choice, {v}. Keep us posted, {p}.',
    ],
  },
  hobby: {
    values: ['surfing', 'knitting', 'baking', 'running', 'yoga', 'painting', 'birdwatching', 'gardening'],
    state: [
      'My free time goes to {v}.',
      'Nothing relaxes me like {v}.',
      "I'm really into {v}, it clears my head.",
      'Most Saturdays you will find me {v}.',
      "When the laptop is closed, it's {v} time.",
    ],
    change: [
      "I'm hooked on {v} lately; {old} has lost its charm.",
      "Haven't touched {old} in months, it's all {v} for me now.",
      'Signed up for a {v} club and sold my {old} gear.',
      'Traded {old} for {v} this year.',
      'Discovered {v} and I am obsessed.',
      'My new thing is {v}; I stopped {old} after the injury.',
      "Fell for {v} at a friend's place and dropped {old}.",
    ],
    current: [
      'What pastime does {p} enjoy at present?',
      "What's {p} into in their free time lately?",
      'How does {p} spend spare time at the moment?',
      "What's {p}'s current pastime?",
    ],
    before: [
      'Which pastime did {p} drop for {new}?',
      'How did {p} spend free time prior to {new}?',
      'What was {p} into until {new} came along?',
    ],
    when: ['When did {p} discover {v}?', 'On what date did {p} get hooked on {v}?', 'When did {p} begin {v}?'],
    at: ['What pastime did {p} enjoy {date}?', 'How did {p} spend free time {date}?', 'What was {p} into {date}?'],
    aside: [
      'There is a {v} festival in the park next weekend.',
      'My doctor keeps telling me to try {v}.',
      'I saw a documentary about {v} on the plane.',
      'A {v} shop opened next to my office.',
    ],
    reaction: [
      '{p}, send us a picture of your {v}!',
      'I could never do {v}, {p}, respect.',
      'How often do you go {v}, {p}?',
    ],
  },
};
