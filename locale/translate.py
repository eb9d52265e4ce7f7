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
    "启发式": "Heuristic",
    "倍数": "Multiplier",
    "默认": "Default",
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


def main() -> int:
    hant = fill_hant(ROOT / "zh_Hant" / "LC_MESSAGES" / "django.po")
    en, missing = fill_en(ROOT / "en" / "LC_MESSAGES" / "django.po")
    print(f"zh_Hant: filled {hant}; en: filled {en}, missing {len(missing)}")
    for msgid in missing:
        print(f"  en missing: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
