/**
 * Some of the most used passwords (from public breach-frequency lists), plus obvious picks for
 * this brand. Compared case-insensitively, also with a trailing digit or '!' run removed, so
 * 'Christmas2026!' counts as common. Short ones are refused by the length rule anyway.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', 'password', '12345678', 'qwerty', '123456789', '12345', '1234', '111111', '1234567',
  'dragon', '123123', 'baseball', 'abc123', 'football', 'monkey', 'letmein', 'shadow', 'master',
  '666666', 'qwertyuiop', '123321', 'mustang', '1234567890', 'michael', '654321', 'superman',
  '1qaz2wsx', '7777777', '121212', '000000', 'qazwsx', '123qwe', 'killer', 'trustno1', 'jordan',
  'jennifer', 'zxcvbnm', 'asdfgh', 'hunter', 'buster', 'soccer', 'harley', 'batman', 'andrew',
  'tigger', 'sunshine', 'iloveyou', '2000', 'charlie', 'robert', 'thomas', 'hockey', 'ranger',
  'daniel', 'starwars', 'klaster', '112233', 'george', 'computer', 'michelle', 'jessica', 'pepper',
  '1111', 'zxcvbn', '555555', '11111111', '131313', 'freedom', '777777', 'pass', 'maggie', '159753',
  'aaaaaa', 'ginger', 'princess', 'joshua', 'cheese', 'amanda', 'summer', 'love', 'ashley', 'nicole',
  'chelsea', 'biteme', 'matthew', 'access', 'yankees', '987654321', 'dallas', 'austin', 'thunder',
  'taylor', 'matrix', 'mobilemail', 'mom', 'monitor', 'monitoring', 'montana', 'moon', 'moscow',
  'password1', 'password12', 'password123', 'password1234', 'passw0rd', 'p@ssw0rd', 'p@ssword',
  'pa55word', 'pa$$w0rd', 'passpass', 'welcome', 'welcome1', 'welcome123', 'welcome2024',
  'welcome2025', 'welcome2026', 'admin', 'admin123', 'administrator', 'root', 'toor', 'changeme',
  'changeme123', 'letmein1', 'letmein123', 'iloveyou1', 'iloveyou2', 'princess1', 'sunshine1',
  'football1', 'baseball1', 'monkey123', 'dragon123', 'master123', 'qwerty123', 'qwerty1',
  'qwerty12', 'qwertyui', 'qwerty1234', 'qwertyuiop1', '1q2w3e4r', '1q2w3e4r5t', '1q2w3e',
  '1qazxsw2', 'zaq12wsx', 'zaq1zaq1', 'q1w2e3r4', 'q1w2e3r4t5', 'asdfghjkl', 'asdfasdf', 'asdf1234',
  'zxcvbnm1', 'abcd1234', 'abcdefg', 'abcdefgh', 'abc12345', 'abc123456', 'aa123456', 'a1b2c3d4',
  'a123456789', '1a2b3c4d', '12341234', '11223344', '00000000', '99999999', '88888888', '12121212',
  '87654321', '123654789', '147258369', '123698745', '789456123', '1231231234', 'qweasdzxc',
  'iloveyou!', 'trustno1!', 'superman1', 'batman123', 'starwars1', 'pokemon', 'pokemon123',
  'minecraft', 'minecraft1', 'fortnite', 'roblox', 'youtube', 'facebook', 'google', 'instagram',
  'twitter', 'linkedin', 'whatsapp', 'samsung', 'iphone', 'apple123', 'microsoft', 'windows',
  'linux', 'ubuntu', 'oracle', 'mysql', 'postgres', 'database', 'secret', 'secret123', 'secret1',
  'hello123', 'hello1234', 'helloworld', 'hellokitty', 'loveme', 'lovely', 'lover', 'loveyou',
  'blessed', 'blessing', 'flower', 'flowers', 'butterfly', 'rainbow', 'angel', 'angel123', 'angels',
  'babygirl', 'baby123', 'sweety', 'sweetheart', 'cookie', 'cookies', 'chocolate', 'jesus',
  'jesus123', 'christ', 'godisgood', 'faith', 'heaven', 'trinity', 'purple', 'orange', 'banana',
  'whatever', 'nothing', 'something', 'anything', 'everything', 'internet', 'computer1', 'security',
  'security1', 'default', 'guest', 'guest123', 'user', 'user123', 'test', 'test123', 'test1234',
  'testing', 'testing123', 'demo', 'demo123', 'sample', 'login', 'login123', 'letmein!', 'access14',
  'qwerty!', 'samantha', 'elizabeth', 'victoria', 'jasmine', 'madison', 'hannah', 'melissa',
  'danielle', 'stephanie', 'jonathan', 'christopher', 'alexander', 'benjamin', 'nicholas', 'anthony',
  'william', 'richard', 'charles', 'patrick', 'jackson', 'liverpool', 'arsenal', 'chelsea1',
  'manchester', 'barcelona', 'realmadrid', 'juventus', 'football12', 'soccer123', 'basketball',
  'volleyball', 'tennis', 'golfer', 'hockey1', 'cricket', 'rugby', 'hunter2', 'hunter123', 'ranger1',
  'killer123', 'shadow123', 'michael1', 'jordan23', 'jordan123', 'mustang1', 'harley1', 'corvette',
  'ferrari', 'porsche', 'mercedes', 'yamaha', 'kawasaki', 'suzuki', 'ducati', 'cowboys', 'steelers',
  'packers', 'lakers', 'yankees1', 'redsox', 'america', 'canada', 'australia', 'sydney', 'melbourne',
  'brisbane', 'perth', 'adelaide', 'kangaroo', 'aussie', 'mate1234', 'vegemite', 'santa',
  'santaclaus', 'christmas', 'christmas1', 'christmas123', 'merrychristmas', 'xmas2024', 'xmas2025',
  'xmas2026', 'rudolph', 'reindeer', 'snowman', 'northpole', 'hohoho', 'hohoho123', 'kringle',
  'kringle1', 'kringle123', 'photos', 'santa123', 'santa2026', 'winter', 'summer1', 'summer2024',
  'summer2025', 'summer2026', 'spring', 'autumn', 'january', 'february', 'march', 'april', 'may',
  'june', 'july', 'august', 'september', 'october', 'november', 'december', 'monday', 'friday',
  'weekend', 'holiday', 'holidays', 'vacation', 'family', 'family1', 'family123', 'mother', 'father',
  'sister', 'brother', 'children', 'mybaby', 'myself', 'myname', 'mypassword', 'yourpassword',
  'nopassword', 'newpassword', 'oldpassword', 'password!', 'password2', 'password01', 'passwort',
  'motdepasse', 'contrasena', 'senha', 'wachtwoord', '123abc', '1234abcd', 'abcd123', 'qwe123',
  'qwe12345', 'zxc123', 'asd123', '987654', '7654321', '1234qwer', '4321', '55555', '5555555',
  '9999999', '1111111', '2222222', '33333333', '44444444', '12345qwert', '123456a', '123456q',
  '123456aa', '123456abc', 'a12345', 'a123456', 'q123456', 'z123456', '1234567a', '12345678a',
  '123456789a', '11111', '22222', '1234561', '123456789q', '12345678910', 'superstar', 'rockstar',
  'rockyou', 'pussycat', 'tiger', 'lion', 'leopard', 'eagle', 'falcon', 'phoenix', 'dolphin',
  'shark', 'wolf', 'dragon1', 'dragons', 'unicorn', 'zombie', 'ninja', 'samurai', 'pirate', 'wizard',
  'merlin', 'gandalf', 'frodo', 'matrix1', 'neo', 'morpheus', 'spider', 'spiderman', 'ironman',
  'hulk', 'thor', 'captain', 'avengers', 'marvel', 'starbucks', 'coffee', 'pizza', 'burger',
  'chicken', 'bacon', 'cheese123', 'pepper1', 'ginger1', 'maggie1', 'buster1', 'charlie1',
  'charlie123', 'bailey', 'bella', 'bella123', 'lucky', 'lucky123', 'daisy', 'molly', 'sophie',
  'chloe', 'oliver', 'jack', 'harry',
]);

export function isCommonPassword(password: string): boolean {
  const lower = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  // 'Password123!', 'Santa2026!!' and the like: a common stem with digits or '!' after it.
  const stem = lower.replace(/[\d!.]+$/, '');
  return stem.length >= 4 && stem !== lower && COMMON_PASSWORDS.has(stem);
}
