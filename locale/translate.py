"""Dev tool: fill the zh_Hant and en catalogs after ``makemessages``.

Usage (from the project root)::

    /work/venv/bin/python manage.py makemessages -l zh_Hant -l en --ignore=venv
    /work/venv/bin/python locale/translate.py        # fills, reports missing English
    /work/venv/bin/python manage.py compilemessages --ignore=venv

zh-Hans is the source language (the msgids).  For ``zh_Hant`` every empty or fuzzy
entry is converted with OpenCC (``s2twp``: Taiwan characters and phrases), then
fixed by :data:`ZH_HANT_FIXES` (whole-string overrides) and :data:`ZH_HANT_TERMS`
(term replacements).  For ``en`` the translations are written by hand in
:data:`EN`; an entry without one is left empty (so Django falls back to the
Chinese source) and listed on stderr.  Translations already in a catalog are
never overwritten.  Needs the dev packages ``polib`` and
``opencc-python-reimplemented``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import opencc
import polib

ROOT = Path(__file__).resolve().parent

#: Whole-message overrides for Traditional Chinese (Taiwan usage).
ZH_HANT_FIXES = {
    "初中生": "國中生",
    "退出登录": "登出",
    "English": "英文",
}

#: Term fixes applied after OpenCC conversion.
ZH_HANT_TERMS = [
    ("賬戶", "帳號"),
    ("退出登入", "登出"),
    ("型別", "類型"),
]

#: English, by hand.  Keys are the zh-Hans msgids.
EN = {
    # accounts
    "账户": "Accounts",
    "称号": "Title",
    "升级（四副牌）": "Shengji (four decks)",
    "保皇": "Baohuang",
    "升级": "Shengji",
    "幼儿班": "Nursery",
    "学前班": "Kindergarten",
    "小学生": "Pupil",
    "初中生": "Middle schooler",
    "高中生": "High schooler",
    "大学生": "Undergraduate",
    "学士": "Bachelor",
    "研究生": "Graduate student",
    "硕士": "Master",
    "博士生": "PhD student",
    "助教": "Teaching assistant",
    "讲师": "Lecturer",
    "副教授": "Associate professor",
    "教授": "Professor",
    "博导": "Doctoral supervisor",
    "院士": "Academician",
    "院长": "Dean",
    "校长": "President",
    "游戏": "Game",
    "等级数": "Level",
    "等级名": "Title",
    "积分门槛": "Points threshold",
    "等级称号": "Level title",
    "用户": "User",
    "游戏积分": "Game points",
    "更新时间": "Updated",
    "玩家积分": "Player standing",
    "积分变化": "Points change",
    "牌局": "Hand",
    "原因": "Reason",
    "时间": "Time",
    "积分记录": "Points entry",
    "牌局结算": "Hand result",
    "黑桃A被抓": "Ace of spades caught",
    "进贡折算": "Tribute settled in points",
    "管理员调整": "Admin adjustment",
    # settings
    "简体中文": "Simplified Chinese",
    "繁體中文": "Traditional Chinese",
    "English": "English",
    # account templates
    "语言": "Language",
    "切换": "Switch",
    "退出登录": "Log out",
    "登录": "Log in",
    "注册": "Sign up",
    "暂时无法登录": "Log-in temporarily locked",
    "连续 %(limit)s 次登录失败，为保护账户，登录已被暂时锁定。": (
        "After %(limit)s failed log-in attempt, log-in has been locked for a while to protect the account.",
        "After %(limit)s failed log-in attempts in a row, log-in has been locked for a while to protect the account.",
    ),
    "请 %(wait)s 分钟后再试。": "Please try again in %(wait)s minutes.",
    "如果忘记了密码，请联系管理员。": "If you have forgotten your password, please contact an administrator.",
    "返回大厅": "Back to the lobby",
    "%(name)s 的资料": "%(name)s's profile",
    "积分": "Points",
    "距「%(next)s」还差 %(need)s 分": "%(need)s points to “%(next)s”",
    "已达最高称号": "Highest title reached",
    "正在进行": "Playing now",
    "最近比赛": "Recent matches",
    "局数": "Hands",
    "还没有比赛记录。": "No matches yet.",
    "最近积分变化": "Recent points changes",
    "修改密码": "Change password",
    "牌室": "Card room",
    "大厅": "Lobby",
    "还没有账户？": "No account yet?",
    "密码已修改": "Password changed",
    "返回个人资料": "Back to your profile",
    "注册新账户": "Create an account",
    "已有账户？": "Already have an account?",
    "回放": "Replay",
    # games models
    "随机": "Random",
    "高手": "Expert",
    "启发式": "Heuristic",
    "倍数": "Multiplier",
    "房间倍数": "Room multiplier",
    "等待中": "Waiting",
    "进行中": "Playing",
    "已关闭": "Closed",
    "房间名": "Room name",
    "房主": "Host",
    "每步时限（秒）": "Time per move (seconds)",
    "机器人延迟（毫秒）": "Bot delay (milliseconds)",
    "选项": "Options",
    "状态": "Status",
    "版本": "Version",
    "截止时间": "Deadline",
    "最后变更": "Last change",
    "创建时间": "Created",
    "房间": "Room",
    "座位": "Seat",
    "机器人": "Bot",
    "准备": "Ready",
    "托管": "Auto-play",
    "编号": "Number",
    "开局": "Start state",
    "结束时间": "Finished",
    "比赛": "Match",
    "种子": "Seed",
    "发牌": "Deal",
    "玩家": "Players",
    "结果": "Result",
    "已完成": "Complete",
    "序号": "Sequence",
    "动作": "Action",
    "执行者": "Actor",
    "进贡座位": "Paying seat",
    "受贡座位": "Receiving seat",
    "牌": "Card",
    "进贡记录": "Tribute record",
    # games services
    "未知的游戏": "Unknown game",
    "不允许的房间倍数": "That room multiplier is not allowed",
    "每步时限须在 5 到 600 秒之间": "The time per move must be between 5 and 600 seconds",
    "机器人延迟须在 0 到 10000 毫秒之间": "The bot delay must be between 0 and 10000 milliseconds",
    "选项无效：%(err)s": "Invalid options: %(err)s",
    "%(user)s 的房间": "%(user)s's room",
    "房间已关闭": "The room is closed",
    "没有这个座位": "There is no such seat",
    "你已经坐在这张桌上": "You are already seated at this table",
    "房间已满": "The room is full",
    "这个座位已经有人": "This seat is taken",
    "你没有坐在这张桌上": "You are not seated at this table",
    "未知的机器人类型": "Unknown bot type",
    "只有房主可以添加机器人": "Only the host can add bots",
    "没有空座位": "There is no empty seat",
    "只有房主可以关闭房间": "Only the host can close the room",
    "上一局还没有结束": "The previous hand has not finished",
    "这一局还没有结束": "This hand has not finished",
    "还有空座位或玩家没有准备": "A seat is empty or a player is not ready",
    "无效的动作": "Invalid action",
    "不能替别的座位出牌": "You cannot play for another seat",
    "无效的动作：%(err)s": "Invalid action: %(err)s",
    "现在没有进行中的牌局": "No hand is in progress",
    "还没轮到你": "It is not your turn yet",
    # games forms, tables, views, templates
    "其他选项（JSON）": "Other options (JSON)",
    "选项必须是 JSON 对象": "Options must be a JSON object",
    "出牌": "Play",
    "让": "Hold",
    "过": "Pass",
    "当皇帝": "Take the crown",
    "不当皇帝": "Decline the crown",
    "明独": "Open solo",
    "暗独": "Secret solo",
    "明保": "Open guard",
    "暗保": "Secret guard",
    "头科": "First",
    "二科": "Second",
    "三科": "Third",
    "二落": "Fourth",
    "大落": "Last",
    "选皇帝": "Choosing the emperor",
    "宣布": "Announce",
    "本局结束": "Hand over",
    "本局作废": "Hand void",
    "皇帝方胜": "The emperor's side wins",
    "反贼方胜": "The rebels win",
    "平局": "Draw",
    "请先选择要出的牌": "Select the cards to play first",
    "未知的动作": "Unknown action",
    "空座": "Empty seat",
    "大王": "Big joker",
    "小王": "Small joker",
    "请先登录": "Please log in first",
    "缺少版本号": "The version number is missing",
    "牌桌已经变化，请按最新状态再操作": "The table has changed; please act on its latest state",
    "轮到你了": "Your turn",
    "还没有房间。": "No rooms yet.",
    "皇帝": "Emperor",
    "%(n)s 张": "%(n)s cards",
    "已准备": "Ready",
    "未准备": "Not ready",
    "本场积分": "Match points",
    "坐下": "Sit down",
    "取消准备": "Cancel ready",
    "取消托管": "Stop auto-play",
    "离座": "Leave the seat",
    "用机器人补满空座": "Fill empty seats with bots",
    "启发式机器人": "Heuristic bot",
    "随机机器人": "Random bot",
    "高手机器人": "Expert bot",
    "添加机器人": "Add a bot",
    "所有座位坐满并准备后自动开始。": "The hand starts once every seat is taken and ready.",
    "积分表": "Score sheet",
    "局": "Hand",
    "合计": "Total",
    "等待 %(name)s": "Waiting for %(name)s",
    "等待宣布": "Waiting for the announcement",
    "下一局": "Next hand",
    "剩余时间": "Time left",
    "%(name)s 持特殊大王": "%(name)s holds the marked big joker",
    "附带 %(n)s 张 2": "with %(n)s twos",
    "已放弃": "Declined",
    "买3": "Buying 3s",
    "%(buyer)s 向 %(seller)s 买3": "%(buyer)s buys a 3 from %(seller)s",
    "免费": "free",
    "进贡": "Tribute",
    "%(name)s 出": "%(name)s plays",
    "新一轮": "New round",
    "%(name)s 先出": "%(name)s leads",
    "我的牌": "My cards",
    "本局结果": "Result of the hand",
    "五家都不当皇帝，本局作废，重新发牌。": "All five declined the crown: the hand is void and will be dealt again.",
    "皇帝方得分 %(s)s": "Emperor's side score: %(s)s",
    "名次": "Place",
    "下载牌谱": "Download the hand record",
    "下一局即将开始": "The next hand starts soon",
    "创建房间": "Create a room",
    "登录后即可创建或加入房间。": "Log in to create or join a room.",
    "%(n)s 个房间": ("%(n)s room", "%(n)s rooms"),
    "第 %(m)s 场 第 %(h)s 局": "Match %(m)s, hand %(h)s",
    "上一步": "Previous",
    "下一步": "Next",
    "开始": "Start",
    "结束": "End",
    "桌面": "Table",
    "返回房间": "Back to the room",
    "关闭房间": "Close the room",
    "创建": "Create",
    # shengji table and board
    "大": "Big",
    "王": "Joker",
    "小": "Small",
    "%(level)s（副）": "%(level)s (side suits)",
    "闲家上台": "The attackers take over",
    "庄家守住": "The dealer's team holds",
    "亮牌": "Show",
    "♠ 黑桃": "♠ Spades",
    "♥ 红桃": "♥ Hearts",
    "♦ 方块": "♦ Diamonds",
    "♣ 梅花": "♣ Clubs",
    "还牌": "Return cards",
    "埋底": "Bury",
    "比牌": "Bid",
    "叫主": "Name trumps",
    "请先选择要还的牌": "Select the cards to return first",
    "提示": "Hint",
    "上一局结果": "Previous hand's result",
    "第几场第几局": "Match and hand number",
    "第 %(m)s 场 · 第 %(h)s 局": "Match %(m)s · hand %(h)s",
    "打": "Level",
    "主": "Trumps",
    "庄": "Dealer",
    "闲家得分": "Attackers' points",
    "闲": "Attacking",
    "主牌从大到小": "Trumps from high to low",
    "主牌": "Trumps",
    "翻牌 %(card)s：%(name)s 先比": "Card shown %(card)s: %(name)s bids first",
    "%(n)s 分": "%(n)s points",
    "不比": "Pass",
    "%(name)s 比牌胜出，叫主": "%(name)s won the bidding and names trumps",
    "还牌：为每一家选出与拿走张数相同的牌（不能有分牌 5、10、K，且每门至少留一张）。先点上家按钮，再点牌。": (
        "Return cards: for each player choose as many cards as you took from them (no point cards 5, 10, K, "
        "and keep at least one card of each suit). Tap the player's button first, then the cards."
    ),
    "这一门至少要留一张 (S14)": "You must keep at least one card of this suit (S14)",
    "张数已经选够了": "You have already chosen enough cards",
    "%(name)s 正在还牌": "%(name)s is returning cards",
    "底牌 8 张已加入你的手牌（金色边框）。选 8 张埋底：": "The 8 kitty cards are in your hand (gold border). Choose 8 cards to bury:",
    "%(name)s 正在埋底": "%(name)s is burying the kitty",
    "%(name)s 甩牌失败": "%(name)s's throw failed",
    "%(name)s 领出": "%(name)s leads",
    "上一轮": "Last trick",
    "%(name)s 赢得此轮，%(n)s 分": "%(name)s won the trick, %(n)s points",
    "甩牌失败": "Throw failed",
    "跟牌要求": "Follow requirement",
    "闲家 %(n)s 分": "Attackers %(n)s points",
    "底牌": "Kitty",
    "%(p)s 分 ×%(m)s": "%(p)s points ×%(m)s",
    "队": "Team",
    "级": "Level",
    "升": "Up",
    "♠A 罚分": "♠A penalty",
    "%(who)s 打过 K，赢得本场！": "%(who)s went past K and won the match!",
    "新的一场即将从 2 开始。": "A new match starts soon from 2.",
    "下一局庄家：%(name)s": "Next dealer: %(name)s",
    # baohuang refusals (games/render/tables.py)
    "黑桃": "Spades",
    "红桃": "Hearts",
    "方块": "Diamonds",
    "梅花": "Clubs",
    "无效的牌": "Invalid cards",
    "这不是一套牌：一套是同点数的牌，可以挂大小王和保子": (
        "That is not a set: a set is cards of one rank, with jokers and the marked ♥4 attached if you like"
    ),
    "管不上：张数要相同，而且每张都要比上家的大": (
        "That does not beat it: play the same number of cards, each one higher than the set on top"
    ),
    "现在不能这样出牌": "You cannot play that now",
    "3 只能在最后一张时单独出": "A 3 can only be played alone, as your last card",
    "现在不是选皇帝的时候": "This is not the time to choose the emperor",
    "现在不能宣布独": "You cannot announce a solo now",
    "现在不能宣布保皇": "You cannot announce the guard now",
    "本局已经结束": "The hand is over",
    "本轮": "This round",
    # B14 settlement, shengji auction hint
    "离座座位": "Seat left",
    "下一局开局": "Next hand's start",
    "进贡结算": "Tribute settlement",
    "房间关闭：所欠进贡已按积分结算（每张牌 1 分，乘房间倍数），不再进贡。": (
        "Room closed: the tribute owed was settled in game points (1 point per card, times the "
        "room multiplier); no tribute will be paid."
    ),
    "%(name)s 离座：所欠进贡已按积分结算（每张牌 1 分，乘房间倍数），下一局不再进贡。": (
        "%(name)s left: the tribute owed was settled in game points (1 point per card, times the "
        "room multiplier); no tribute in the next hand."
    ),
    "离座时所欠进贡按积分结算（B14）": "Tribute owed on leaving is settled in game points (B14)",
    "离座结算": "Settlement on leaving",
    "最高 %(n)s 分，须超过才能亮牌": "Highest pile: %(n)s points; show more to bid",
    # issue #11: refusals, help, chat, table notices
    "自动播放": "Auto-play",
    "庄家": "Dealer's side",
    "本轮出牌": "Played this trick",
    "默认": "Default",
    "理牌": "Sort",
    "按花色（主牌在前）": "By suit (trumps first)",
    "按花色": "By suit",
    "按点数": "By rank",
    "清除选择": "Clear selection",
    "轮到我时响铃": "Sound on my turn",
    # strings of pages shared with other features (catalogued here so no msgid is left empty)
    "排行榜": "Leaderboards",
    "头科率": "First-place rate",
    "大落率": "Last-place rate",
    "每局升级": "Levels per hand",
    "坐庄率": "Dealer rate",
    "称号等级与积分走势": "Title ladder and points history",
    "你在这里": "you are here",
    "之后": "After",
    "俱乐部": "Clubs",
    "暂停": "Pause",
    "轮": "Rounds",
    '从牌桌上隐藏所选消息': 'Hide the selected messages from the table',
    '快点吧，等得花儿都谢了': 'Hurry up, please!',
    '打得好！': 'Well played!',
    '不好意思，出错牌了': 'Sorry, wrong card!',
    '谢谢搭档': 'Thanks, partner',
    '再来一局！': 'One more hand!',
    '我先走了，下次再玩': 'I have to go, see you next time',
    '没有这个快捷语': 'There is no such quick phrase.',
    '请输入内容': 'Type a message first.',
    '消息太长了（最多 %(n)d 个字）': 'That message is too long (at most %(n)d characters).',
    '说得太快了，请稍等几秒': 'You are sending too fast; wait a few seconds.',
    '内容': 'Text',
    '快捷语': 'Quick phrases',
    '已隐藏': 'Hidden',
    '聊天消息': 'Chat message',
    '聊天屏蔽': 'Chat mute',
    '这不是有效的牌。': 'Those are not valid cards.',
    '这不是一套牌：一套是同点数的牌，可以挂大小王和保子。': 'That is not a set: a set is cards of one rank, with jokers and the marked ♥4 allowed on top.',
    '管不上：张数要相同，而且每张都要比上家的大。': 'That does not beat the top set: play as many cards, each one higher than the card it meets.',
    '现在不能这样出牌：领出时要出一套牌，让牌每轮只能用一次。': 'You cannot play that now: lead a set, and yield only once per round.',
    '3 只能在最后一张时单独出。': 'A 3 can only be played alone, as your last card.',
    '现在不是选皇帝的时候。': 'This is not the time to choose the emperor.',
    '现在不能宣布独。': 'You cannot declare a solo now.',
    '现在不能宣布保皇。': 'You cannot declare the guard now.',
    '本局已经结束。': 'This hand is over.',
    '这样不能领出：领出须是单张、对子、三张、炸弹、拖拉机、摔牌或甩牌。': 'You cannot lead that: lead a single, a pair, a triple, a bomb, a tractor or a throw.',
    '跟牌不对：有领出这一门的牌就必须跟这一门，并尽量跟出同样的牌型（对子跟对子，拖拉机跟拖拉机）。': "Wrong follow: while you hold the suit led you must follow it, copying the lead's shape where you can (pairs for pairs, a tractor for a tractor).",
    '亮牌后你的比牌总分必须超过目前的最高分。': 'Your shown 比牌 must total more than the highest bid so far.',
    '这样还牌不行：张数要和拿走的一样，不能还分牌（5、10、K），每门至少留一张。': 'You cannot give back those cards: give as many as you took, no point cards (5, 10, K), and keep at least one card of each suit.',
    '埋底必须是你手里的正好 8 张牌。': 'Bury exactly 8 cards from your hand.',
    '这一步不符合规则。': 'The rules do not allow that move.',
    '跟 %(n)s 张：有%(suit)s就必须出%(suit)s，并尽量跟出同样的牌型。': "Follow with %(n)s cards: play %(suit)s while you hold any, copying the lead's shape where you can.",
    '主牌': 'trumps',
    '规则': 'Rules',
    '屏蔽 %(name)s': 'Mute %(name)s',
    '屏蔽': 'Mute',
    '查看规则': 'See the rule',
    '你离开后，机器人在替你打 %(n)s 号座位。': 'Since you left, a bot is playing seat %(n)s for you.',
    '回到座位': 'Take my seat back',
    '你正在托管：机器人在替你出牌（超时或你自己选择）。': 'You are on auto-play: a bot is playing for you (you ran out of time or chose it).',
    '接管': 'Take over',
    '牌桌暂停：等 %(names)s 点“准备”后继续发牌（所有人都托管时牌桌会停下来）。': 'The table is paused until %(names)s press Ready (a table stops when every player is on auto-play).',
    '离座后机器人会替你打完这一局，比赛中你可以回来接管。确定离座吗？': 'A bot will finish this hand for you, and you can come back during the match. Leave your seat?',
    '确定离开这个座位吗？': 'Leave this seat?',
    '选皇帝规则': 'Crown rules',
    '明保与暗保': 'Open and secret guard',
    '买3规则': 'Buying a 3',
    '进贡规则': 'Tribute rules',
    '金色边框的大王和红桃 4 是特殊标志牌': 'The gold-outlined big joker and ♥4 are the marked cards',
    '特殊标志牌': 'Marked cards',
    '牌的大小': 'Card order',
    '%(game_name)s 规则': '%(game_name)s rules',
    '%(name)s 规则': '%(name)s rules',
    '去大厅开一桌': 'Open a table in the lobby',
    '称号等级': 'Title ladder',
    '每局的游戏积分（乘房间倍数）累加到你在这个游戏的总积分；称号是积分达到的最高一级。管理员可以调整这张表。': "Each hand's game points (times the room multiplier) add up to your total in that game; your title is the highest row your points reach. Admins maintain this table.",
    '等级': 'Level',
    '规则与帮助': 'Rules and help',
    '牌室：升级和保皇': 'Cardroom: Shengji and Baohuang',
    '牌室：和朋友、陌生人或机器人打升级和保皇': 'Cardroom: play Shengji and Baohuang with friends, strangers or bots',
    '这里可以在浏览器里（手机也行）玩两种中国牌：四副牌升级（比牌叫主）和五人保皇。每一步都实时同步，空座位可以由机器人补上，每一局都能回放和下载牌谱。': 'Play two Chinese card games in your browser, phones included: four-deck Shengji with 比牌 bidding and five-player Baohuang. Every move arrives live, bots fill empty seats, and every hand can be replayed and downloaded.',
    '你好，%(name)s！': 'Hello, %(name)s!',
    '或': 'or',
    '（只要用户名和密码）。': ' (just a user name and a password).',
    '选一个游戏，进入大厅，坐到空座位上，或者自己开一桌。': 'Pick a game, open its lobby, take an empty seat or open your own table.',
    '房主可以用机器人补满空座；所有人点“准备”后自动发牌。': "The table's owner can fill empty seats with bots; the cards are dealt once everybody presses Ready.",
    '不熟悉规则？先读规则页；牌桌上的“?”和每条拒绝提示都会链接到对应的规则。': 'New to the games? Read the rules; every "?" at the table and every refused move links to the rule it is about.',
    '四人两队，四副牌，比牌争叫主，从 2 打过 K。': 'Four players in two teams, four decks, bid with 比牌 for trumps, climb from 2 past K.',
    '五人，皇帝和暗中的保皇对三个反贼，先出完牌的名次高。': 'Five players: the emperor and his secret guard against three rebels; first out places highest.',
    '连接中断，正在重连…': 'Connection lost, reconnecting…',
    '关闭房间会结束这场比赛，所有人都要离开。确定关闭吗？': 'Closing the room ends the match for everybody. Close it?',
    '聊天': 'Chat',
    '聊天内容': 'Message',
    '说点什么…': 'Say something…',
    '发送': 'Send',
    '取消': 'Cancel',
    '确定': 'OK',
    '主牌的大小': 'Trump order',
    '比牌规则': '比牌 bidding rules',
    '还牌：为每一家选出与拿走张数相同的牌（不能有分牌 5、10、K，且每门至少留一张）。先点要还给的那一家，再点牌。': 'Give back: for each player choose as many cards as you took from them (no point cards 5, 10, K, and keep at least one card of each suit). Tap the player first, then the cards.',
    '还牌规则': 'Giving-back rules',
    '这一门至少要留一张': 'Keep at least one card of this suit',
    '埋底规则': 'Kitty rules',
    '跟牌规则': 'Following rules',
    '♠A 罚分规则': '♠A penalty rules',
    # ratings, leaderboards, quick play (#14)
    "皇帝率": "Emperor rate",
    "快速开始": "Quick play",
    "等待好友": "Waiting for friend",
    "排队中": "Queued",
    "已入座": "Seated",
    "已退出": "Left",
    "搭档": "Partner",
    "邀请码": "Invitation code",
    "等级分": "Rating",
    "机器人补位等待（秒）": "Bot fill wait (s)",
    "最后在线": "Last seen",
    "入座时间": "Seated at",
    "加入时间": "Joined",
    "快速开始排队": "Quick play queue",
    "无效的机器人等待时间": "Invalid bot wait",
    "你已经在另一个游戏的队列中": "You are already queued for another game",
    "这个游戏没有固定搭档": "This game has no fixed partners",
    "你已经在队列中": "You are already in the queue",
    "邀请已失效": "The invitation is no longer valid",
    "不能和自己组队": "You cannot pair with yourself",
    "胜": "Won",
    "平": "Drawn",
    "负": "Lost",
    "计分牌局": "Rated hand",
    "之前": "Before",
    "暂定": "Provisional",
    "等级分变化": "Rating change",
    "你的快速开始牌桌已就绪。": "Your quick-play table is ready.",
    "进入牌桌": "Go to the table",
    "排队中…": "In the queue…",
    "立即开始": "Play now",
    "把这个链接发给你的搭档，对方接受后你们一起排队（坐对家）：":
        "Send this link to your partner; once accepted you queue together (sitting opposite):",
    "正在为你寻找%(game)s牌桌…": "Looking for a %(game)s table…",
    "秒": "s",
    "%(a)s 和 %(b)s 一起排队": "%(a)s and %(b)s queue together",
    "只和真人玩": "Humans only",
    "%(n)s 秒后用机器人补满空座": "Bots fill empty seats after %(n)s s",
    "关闭页面 %(n)s 秒后会退出队列；在此之前配桌成功，你的座位会保留。":
        "Closing this page leaves the queue after %(n)s s; a table found before then keeps your seat.",
    "退出队列": "Leave the queue",
    "牌桌已就绪！": "Your table is ready!",
    "组队邀请": "Partner invitation",
    "%(name)s 邀请你一起玩%(game)s（坐对家）。": "%(name)s invites you to play %(game)s as partners.",
    "接受并排队": "Accept and queue",
    "这个邀请已失效。": "This invitation is no longer valid.",
    "快速开始 · %(game)s": "Quick play · %(game)s",
    "没有足够的真人时": "When there are not enough people",
    "10 秒后用机器人补满": "Fill with bots after 10 s",
    "30 秒后用机器人补满": "Fill with bots after 30 s",
    "和好友组队": "Queue with a friend",
    "我们会把你和等级分相近的玩家安排在一起；等得越久，范围越宽。":
        "You are seated with players of similar rating; the longer you wait, the wider the range.",
    "等级分曲线：%(low)s 至 %(high)s": "Rating graph: %(low)s to %(high)s",
    "胜率": "Win rate",
    "%(game)s排行榜": "%(game)s leaderboard",
    "全部": "All time",
    "本月": "This month",
    "所有玩家": "All players",
    "显示": "Show",
    "你的排名：第 %(n)s 名": "Your position: #%(n)s",
    "查看": "Show",
    "暂定：前 %(n)s 局": "Provisional: first %(n)s hands",
    "翻页": "Pages",
    "上一页": "Previous",
    "第 %(n)s / %(total)s 页": "Page %(n)s of %(total)s",
    "下一页": "Next",
    "还没有人上榜。": "Nobody on the board yet.",
    "等级分按每局结果计算（与机器人的对局也计入，机器人的等级分固定）；前 %(n)s 局为暂定（标 ?），排在正式等级分之后。":
        "Ratings change after every hand (hands with bots count; bots have fixed ratings); "
        "the first %(n)s hands are provisional (marked ?) and listed after established ratings.",

    # clubs and events (#13), room options, throttles, hidden decisions (#8)
    "密码至少要有 %(n)d 个非空白字符。": "A password needs at least %(n)d non-space characters.",
    "会员数": "Members",
    "俱乐部与比赛": "Clubs and events",
    "只有俱乐部“%(club)s”的组织者可以这样做": "Only the organisers of the club “%(club)s” can do this",
    "已报名": "Registered",
    "已确认搭档": "Partner confirmed",
    "已退赛": "Withdrawn",
    "已添加机器人参赛者": "Bot entrants added",
    "请选两个在本轮配对中的参赛者": "Choose two entrants paired in this round",
    "已交换": "Swapped",
    "本轮开始": "Round started",
    "本轮已结束": "Round ended",
    "成绩格式不对": "The result is not in the right format",
    "成绩已更正": "Result corrected",
    "这个游戏还不能办比赛": "This game cannot host events yet",
    "未知的赛制": "Unknown format",
    "这个游戏每桌多于两方，不能打循环赛；请用瑞士制":
        "This game has more than two sides at a table, so it cannot be a round robin; use Swiss",
    "请设定每轮局数或时限": "Set the hands per round or a time limit",
    "复式赛需要设定每轮局数（牌组数）": "A duplicate event needs the hands per round (the number of boards)",
    "轮数须在 1 到 50 之间": "Rounds must be between 1 and 50",
    "请填写比赛名称": "Enter the event's name",
    "只有本俱乐部的会员可以报名": "Only members of this club can register",
    "比赛已经结束": "The event is over",
    "你已经报名了": "You have already registered",
    "请填写搭档的用户名": "Enter your partner's username",
    "搭档不是本俱乐部的会员": "Your partner is not a member of this club",
    "搭档已经在另一组报名": "Your partner is already registered with someone else",
    "这不是你的报名": "This is not your entry",
    "机器人%(n)s": "Bot %(n)s",
    "上一轮还没有结束": "The previous round has not finished",
    "所有轮次都已打完": "All rounds have been played",
    "报名的参赛者不够": "Not enough entrants",
    "循环赛已经打完": "The round robin is complete",
    "这一轮已经开始，不能再调整配对": "This round has started; the pairing can no longer change",
    "这一轮不在预览状态": "This round is not in preview",
    "这一轮没有在进行": "This round is not running",
    "请写明更正理由": "Give a reason for the correction",
    "名称": "Name",
    "赛制": "Format",
    "复式赛轮转": "Duplicate movement",
    "轮数": "Rounds",
    "每轮局数": "Hands per round",
    "每轮时限（分钟）": "Time per round (minutes)",
    "机器人/托管延迟（毫秒）": "Bot / auto-play delay (milliseconds)",
    "缺席处理": "No-shows",
    "缺席宽限（分钟）": "No-show grace (minutes)",
    "简介": "Description",
    "加入码": "Join code",
    "创建者": "Created by",
    "组织者": "Organiser",
    "会员": "Member",
    "身份": "Role",
    "会员资格": "Membership",
    "瑞士制": "Swiss",
    "循环赛": "Round robin",
    "复式赛": "Duplicate",
    "判负": "Forfeit",
    "机器人代打，成绩有效": "A bot plays; the result counts",
    "机器人代打，缺席者判负": "A bot plays; the absent player forfeits",
    "报名中": "Registering",
    "已结束": "Finished",
    "复式赛的配对方式": "How a duplicate event pairs tables",
    "待搭档确认": "Awaiting partner",
    "退赛于第几轮后": "Withdrew after round",
    "报名时间": "Registered at",
    "参赛者": "Entrant",
    "已确认": "Confirmed",
    "配对预览": "Pairing preview",
    "轮次": "Round",
    "配对": "Pairing",
    "牌组": "Boards",
    "开始时间": "Started",
    "结束时限": "Ends by",
    "入座时限": "Seat by",
    "因时限结束": "ended by the clock",
    "桌号": "Table number",
    "成绩": "Result",
    "完成时间": "Finished at",
    "比赛桌": "Event table",
    "理由": "Reason",
    "原成绩": "Previous result",
    "新成绩": "New result",
    "成绩更正": "Result correction",
    "请填写俱乐部名称": "Enter the club's name",
    "这个名称已经有俱乐部在用": "A club already uses this name",
    "加入链接无效或已经更换": "The join link is invalid or has been replaced",
    "此人不是本俱乐部的会员": "This person is not a member of this club",
    "俱乐部至少要有一位组织者": "A club needs at least one organiser",
    "俱乐部已创建，你是组织者": "Club created; you are its organiser",
    "你已加入俱乐部“%(club)s”": "You joined the club “%(club)s”",
    "已保存": "Saved",
    "已更换加入链接，旧链接失效": "Join link replaced; the old link no longer works",
    "已移除会员": "Member removed",
    "已设为组织者": "Made an organiser",
    "已取消组织者身份": "No longer an organiser",
    "你已退出俱乐部": "You left the club",
    "待公布的决定": "Decision to announce",
    "选项里不能有 %(value)s，只能用普通数字、文字或 true/false":
        "Options cannot contain %(value)s; use plain numbers, text or true/false",
    "选项太长（最多 %(n)d 个字符）": "The options are too long (at most %(n)d characters)",
    "选项太多（最多 %(n)d 个）": "Too many options (at most %(n)d)",
    "（无）": "(none)",
    "未知的选项“%(key)s”；这个游戏可用的选项：%(known)s": "Unknown option “%(key)s”; this game's options: %(known)s",
    "选项“%(key)s”不能是嵌套的对象或列表": "Option “%(key)s” cannot be a nested object or list",
    "选项“%(key)s”只能是：%(allowed)s": "Option “%(key)s” can only be: %(allowed)s",
    "你已经开了 %(n)d 个房间；请先关闭不用的房间再开新房间":
        "You already have %(n)d rooms open; close one you no longer use before opening another",
    "操作太频繁，请稍后再试": "Too many requests; try again shortly",
    "开房间太频繁，请一分钟后再试": "Too many rooms opened; try again in a minute",
    "已记下你的选择，时限到时生效（到那时之前可以改）":
        "Your choice is noted and takes effect at the deadline (you can change it until then)",
    # club templates
    "去你的牌桌（第 %(n)s 桌）": "Go to your table (table %(n)s)",
    "第 %(n)s 轮": "Round %(n)s",
    "轮空": "Bye",
    "机器人 %(n)s 名，在第 %(t)s 桌": "%(n)s bots, at table %(t)s",
    "无法避免的重复对手：%(n)s": "Unavoidable repeat opponents: %(n)s",
    "交换": "Swap",
    "重新配对": "Pair again",
    "开始本轮": "Start the round",
    "桌": "Table",
    "进度": "Progress",
    "%(d)s 局完成": "%(d)s hands done",
    "停滞": "stalled",
    "缺席": "No-show",
    "去你的牌桌": "Go to your table",
    "观看": "Watch",
    "更正": "Correct",
    "保存更正": "Save the correction",
    "继续": "Continue",
    "提前结束本轮": "End the round now",
    "第 %(n)s 副牌（巡回表）": "Board %(n)s (travelling sheet)",
    "排名": "Standings",
    "小分": "Tie-breaks",
    "成绩更正记录": "Result corrections",
    "第 %(r)s 轮第 %(t)s 桌": "Round %(r)s, table %(t)s",
    "暂无比赛": "No events yet",
    "创建比赛": "Create an event",
    "%(e)s 第 %(r)s 轮：去你的牌桌（第 %(n)s 桌）": "%(e)s round %(r)s: go to your table (table %(n)s)",
    "取消组织者": "Remove as organiser",
    "设为组织者": "Make organiser",
    "移除": "Remove",
    "退出俱乐部": "Leave the club",
    "向组织者要加入链接或加入码即可加入。": "Ask an organiser for the join link or join code to join.",
    "组织者工具": "Organiser tools",
    "加入链接": "Join link",
    "更换加入链接": "Replace the join link",
    "保存": "Save",
    "每轮 %(n)s 局": "%(n)s hands per round",
    "每轮 %(n)s 分钟": "%(n)s minutes per round",
    "排名 CSV": "Standings CSV",
    "配对与成绩 CSV": "Pairings and results CSV",
    "打印页": "Printable page",
    "确认搭档": "Confirm partner",
    "退赛": "Withdraw",
    "还没有人报名": "Nobody has registered yet",
    "搭档用户名": "Partner's username",
    "报名": "Register",
    "加入俱乐部后可以报名。": "Join the club to register.",
    "添加机器人参赛者": "Add bot entrants",
    "配对下一轮": "Pair the next round",
    "两人一组的游戏以固定搭档报名（搭档需确认），其他游戏以个人报名。":
        "In partnership games you register with a fixed partner (who confirms); in other games you register alone.",
    "加入%(name)s": "Join %(name)s",
    "加入俱乐部“%(name)s”": "Join the club “%(name)s”",
    "你已经是会员。": "You are already a member.",
    "去俱乐部页面": "Go to the club page",
    "加入": "Join",
    "后加入。": "to join.",
    "我的俱乐部": "My clubs",
    "你还没有加入俱乐部。": "You have not joined a club yet.",
    "用加入码加入": "Join with a code",
    "创建俱乐部": "Create a club",
    "后可以创建或加入俱乐部。": "to create or join a club.",
    "所有俱乐部": "All clubs",
    "暂无": "None yet",
    "不能这样做": "Not allowed",
    "返回俱乐部": "Back to the club",

    # event result and tie-break labels (clubs.pages.TIEBREAK_LABELS)
    "级差": "Level margin",
    "得分": "Points",
    "对手分": "Opponents' score",
    "直接对局": "Head to head",
    "同桌总分": "Tablemates' total",
    "比赛分": "Matchpoints",
    "满分": "Top",
    # 保皇: the previous round on demand (#11)
    "上一轮出牌": "Last round",
    "%(name)s 赢得此轮": "%(name)s won the round",
}


def _needs(entry: polib.POEntry) -> bool:
    if entry.obsolete:
        return False
    if "fuzzy" in entry.flags:
        return True
    if entry.msgid_plural:
        return not any(entry.msgstr_plural.values())
    return not entry.msgstr


def _settle(entry: polib.POEntry) -> None:
    if "fuzzy" in entry.flags:
        entry.flags.remove("fuzzy")
    entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None


def _header(po: polib.POFile) -> None:
    po.metadata_is_fuzzy = False
    po.metadata["Project-Id-Version"] = "cardroom"
    po.metadata["Language-Team"] = "cardroom"
    po.metadata["Last-Translator"] = "cardroom accounts (locale/translate.py)"
    po.metadata["PO-Revision-Date"] = po.metadata.get("POT-Creation-Date", "")
    po.header = "Cardroom UI translations; source language zh-Hans.  Filled by locale/translate.py."


def to_hant(text: str, cc=opencc.OpenCC("s2twp")) -> str:
    """zh-Hans → zh-Hant (Taiwan) with the project's fixes."""
    if text in ZH_HANT_FIXES:
        return ZH_HANT_FIXES[text]
    out = cc.convert(text)
    for old, new in ZH_HANT_TERMS:
        out = out.replace(old, new)
    return out


def fill_hant(path: Path) -> int:
    po = polib.pofile(str(path))
    count = 0
    for entry in po:
        if not _needs(entry):
            continue
        if entry.msgid_plural:
            entry.msgstr_plural = {0: to_hant(entry.msgid)}  # nplurals=1
        else:
            entry.msgstr = to_hant(entry.msgid)
        _settle(entry)
        count += 1
    _header(po)
    po.metadata["Plural-Forms"] = "nplurals=1; plural=0;"
    po.metadata["Language"] = "zh_Hant"
    po.save()
    return count


def fill_en(path: Path) -> tuple[int, list[str]]:
    po = polib.pofile(str(path))
    count, missing = 0, []
    for entry in po:
        if not _needs(entry):
            continue
        text = EN.get(entry.msgid)
        if text is None:
            missing.append(entry.msgid)
            entry.msgstr = ""
            if entry.msgid_plural:
                entry.msgstr_plural = {0: "", 1: ""}
            _settle(entry)  # empty, not fuzzy: Django shows the source text
            continue
        if entry.msgid_plural:
            one, other = text if isinstance(text, tuple) else (text, text)
            entry.msgstr_plural = {0: one, 1: other}
        else:
            entry.msgstr = text
        _settle(entry)
        count += 1
    _header(po)
    po.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    po.metadata["Language"] = "en"
    po.save()
    return count, missing


def convert_help_pages() -> int:
    """Write ``rules.zh-hant.html`` beside every ``rules.zh-hans.html`` help
    page (issue #11) with :func:`to_hant`, overwriting it: the Simplified page
    is the one source, so the two cannot drift (a fix to the Traditional text
    goes into :data:`ZH_HANT_TERMS`); ``tests/site/test_help_pages.py`` fails
    when a committed Traditional page differs from the conversion.  Returns the
    number of pages whose text changed."""
    count = 0
    for source in sorted(ROOT.parent.glob("games/*/templates/games/*/rules.zh-hans.html")):
        target = source.with_name("rules.zh-hant.html")
        text = to_hant(source.read_text(encoding="utf-8"))
        if target.exists() and target.read_text(encoding="utf-8") == text:
            continue
        target.write_text(text, encoding="utf-8")
        count += 1
    return count


def main() -> int:
    pages = convert_help_pages()
    if pages:
        print(f"help pages: {pages} converted to zh-Hant")
    hant = fill_hant(ROOT / "zh_Hant" / "LC_MESSAGES" / "django.po")
    en, missing = fill_en(ROOT / "en" / "LC_MESSAGES" / "django.po")
    print(f"zh_Hant: filled {hant}; en: filled {en}, missing {len(missing)}")
    for msgid in missing:
        print(f"  en missing: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
